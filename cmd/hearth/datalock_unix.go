//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockFile is held by the appliance for as long as it serves a data
// folder: a second `hearth serve` on the same folder, or a restore over a
// running appliance, is refused. The kernel drops the lock when the
// process dies, so a crash never leaves a stale lock behind.
const lockFile = "serve.lock"

// lockData takes the folder's lock; release gives it back.
func lockData(dir string) (release func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock data folder: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", dir, errDataInUse)
		}
		return nil, fmt.Errorf("lock data folder: %w", err)
	}
	return func() { f.Close() }, nil
}
