//go:build !unix

package store

// allocWords: on this platform the KNN's sign bits live on the Go heap.
func allocWords(n int) ([]uint64, bool) { return make([]uint64, 0, n), false }

func freeWords([]uint64) {}
