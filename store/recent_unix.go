//go:build unix

package store

import (
	"os"
	"syscall"
)

// linked reports whether f still has a name: false once a newer signal
// replaced it.
func linked(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 0
}
