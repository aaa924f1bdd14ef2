//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcAttr puts the server in its own process group so that a Ctrl-C in
// the terminal reaches only the driver, which then stops the server itself
// (SIGINT, grace period, SIGKILL) and removes the data directory.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func interruptProcess(p *os.Process) error { return p.Signal(syscall.SIGINT) }

// killProcess kills the whole process group, then the process itself.
func killProcess(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
