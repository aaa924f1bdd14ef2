//go:build !linux && !darwin && !windows

package api

// diskUsage is unknown on systems Hearth is not released for: the System
// page shows zeros rather than the build failing.
func diskUsage(dir string) (free, total uint64, err error) { return 0, 0, nil }
