//go:build unix

package store

import (
	"os"
	"syscall"
)

// linked reports whether f still has a name: false once a newer signal
// replaced it. fstat straight into a stack value: f.Stat allocates its
// answer, once per request.
func linked(f *os.File) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return false
	}
	return st.Nlink > 0
}
