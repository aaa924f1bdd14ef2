//go:build unix

package store

import (
	"syscall"
	"unsafe"
)

// allocWords returns room for n words (length 0) in anonymous memory mapped
// outside the Go heap, and true; or, should mapping fail, on the heap, and
// false. Only mapped words are to be given to freeWords. Mapped pages
// count in RSS once written, so unused capacity costs nothing. This holds for the KNN's sign bits (knncache.go). The Go heap grows to
// twice what it holds live before a collection; 100k memories' bits are
// 5 MB that never hold a pointer and live until the scope reloads, and on
// the heap they alone doubled its size (RSS) for nothing.
func allocWords(n int) ([]uint64, bool) {
	b, err := syscall.Mmap(-1, 0, 8*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil || n == 0 {
		return make([]uint64, 0, n), false
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n)[:0], true
}

// freeWords unmaps words allocWords mapped; they must not be read after.
func freeWords(w []uint64) {
	_ = syscall.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*cap(w)))
}
