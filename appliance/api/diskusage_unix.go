//go:build linux || darwin

package api

import (
	"fmt"
	"syscall"
)

// diskUsage reports the free space (what an unprivileged process may
// still write: blocks the root reserve holds back are not free to us) and
// the size of the filesystem that holds dir.
func diskUsage(dir string) (free, total uint64, err error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, 0, fmt.Errorf("statfs %s: %w", dir, err)
	}
	// Bsize's type differs between the systems (int64, uint32).
	bsize := uint64(st.Bsize)
	return uint64(st.Bavail) * bsize, uint64(st.Blocks) * bsize, nil
}
