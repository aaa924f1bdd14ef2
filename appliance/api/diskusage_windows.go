//go:build windows

package api

import (
	"fmt"
	"syscall"
	"unsafe"
)

// getDiskFreeSpaceEx is kernel32's, called through the standard library
// so that Windows builds need no golang.org/x/sys.
var getDiskFreeSpaceEx = syscall.NewLazyDLL("kernel32.dll").NewProc("GetDiskFreeSpaceExW")

// diskUsage reports the free space available to this process (quotas
// applied) and the size of the volume that holds dir.
func diskUsage(dir string) (free, total uint64, err error) {
	p, err := syscall.UTF16PtrFromString(dir)
	if err != nil {
		return 0, 0, fmt.Errorf("disk usage of %s: %w", dir, err)
	}
	var avail, size, all uint64
	r, _, callErr := getDiskFreeSpaceEx.Call(uintptr(unsafe.Pointer(p)),
		uintptr(unsafe.Pointer(&avail)), uintptr(unsafe.Pointer(&size)), uintptr(unsafe.Pointer(&all)))
	if r == 0 {
		return 0, 0, fmt.Errorf("disk usage of %s: %w", dir, callErr)
	}
	return avail, size, nil
}
