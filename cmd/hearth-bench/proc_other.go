//go:build !unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"time"
)

func setProcAttr(cmd *exec.Cmd) {}

func interruptProcess(p *os.Process) error { return p.Signal(os.Interrupt) }

func terminateProcess(p *os.Process) error { return errors.New("no SIGTERM on this system") }

func killProcess(p *os.Process) { _ = p.Kill() }

func processCPU(pid int) time.Duration { return 0 }

func selfCPU() time.Duration { return 0 }
