package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestNothingServedBeforeTLSIsReady: with TLS start-up held back (the
// HEARTH_TEST_TLS_GATE hook), a request on the plain port is not answered
// until the front handler is final; once it is, the CA download is served
// (a handler built on the first request had no CA and answered 404 for
// the life of the process).
func TestNothingServedBeforeTLSIsReady(t *testing.T) {
	t.Parallel()
	data, addr := t.TempDir(), fmt.Sprintf("127.0.0.1:%d", freePort(t))
	gate := filepath.Join(t.TempDir(), "open")
	cmd := exec.Command(hearthBin, "serve", "--data", data, "--addr", addr, "--log-format", "json")
	cmd.Env = append(os.Environ(), "HEARTH_TLS_ADDR=127.0.0.1:0", "HEARTH_MDNS=false", "HEARTH_TEST_TLS_GATE="+gate)
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		os.WriteFile(gate, nil, 0o600) // a held start-up cannot see SIGINT
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}()
	// The plain port listens before TLS starts.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the plain port never listened")
		}
	}
	answered := make(chan int, 1)
	go func() {
		resp, err := (&http.Client{Timeout: 60 * time.Second}).Get("http://" + addr + "/healthz")
		if err != nil {
			answered <- -1
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	// Give an early answer every chance to arrive (it would within
	// milliseconds): none may while TLS start-up is held.
	time.Sleep(time.Second)
	select {
	case st := <-answered:
		t.Fatalf("/healthz answered %d before TLS start-up finished", st)
	default:
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if st := <-answered; st != http.StatusOK {
		t.Fatalf("/healthz once serving: %d", st)
	}
	resp, err := client.Get("http://" + addr + "/lan/ca.crt")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/lan/ca.crt: %d\n%s", resp.StatusCode, logs.String())
	}
}

// TestOneAddressCannotTakeEveryConnection: one client (127.0.0.2) opens
// 600 sockets and leaves their headers unfinished; while it holds them,
// another client (127.0.0.1) is still answered. Before the per-address cap
// the 600 filled --max-conns and others waited for the header timeout.
func TestOneAddressCannotTakeEveryConnection(t *testing.T) {
	t.Parallel()
	srv := startServe(t, t.TempDir(), "HEARTH_MDNS=false")
	host := srv.base[len("http://"):]
	greedy := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for range 600 {
		c, err := greedy.Dial("tcp", host)
		if err != nil {
			t.Fatalf("dial from 127.0.0.2: %v", err)
		}
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n", host) // no blank line: headers unfinished
		held = append(held, c)
	}
	// The other client is answered well inside the 10 s header timeout
	// that used to free the slots (a loopback answer takes milliseconds).
	other := &http.Client{Timeout: 5 * time.Second}
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := other.Get(srv.base + "/healthz")
			if err != nil {
				errs <- err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				errs <- fmt.Errorf("status %d", resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("another client while 600 idle sockets are held: %v", err)
	}
}
