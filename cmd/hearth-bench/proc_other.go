//go:build !unix

package main

import (
	"os"
	"os/exec"
)

func setProcAttr(cmd *exec.Cmd) {}

func interruptProcess(p *os.Process) error { return p.Signal(os.Interrupt) }

func killProcess(p *os.Process) { _ = p.Kill() }
