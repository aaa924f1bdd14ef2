package main

import (
	"net"
	"net/netip"
	"sync"
)

// peerCapListener closes a new connection at once when its remote address
// already holds max open ones, so one client holding hundreds of idle
// sockets cannot take the whole --max-conns budget from everyone else.
// It sits under the global cap: a refused connection never takes a slot.
// Addresses for which exempt is true (trusted reverse proxies, which carry
// everyone's traffic) are not counted.
type peerCapListener struct {
	net.Listener
	max    int
	exempt func(netip.Addr) bool

	mu   sync.Mutex
	open map[netip.Addr]int
}

func newPeerCapListener(ln net.Listener, max int, exempt func(netip.Addr) bool) net.Listener {
	if max < 1 {
		return ln
	}
	return &peerCapListener{Listener: ln, max: max, exempt: exempt, open: map[netip.Addr]int{}}
}

func (l *peerCapListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ap, perr := netip.ParseAddrPort(c.RemoteAddr().String())
		if perr != nil || (l.exempt != nil && l.exempt(ap.Addr().Unmap())) {
			return c, nil
		}
		ip := ap.Addr().Unmap()
		l.mu.Lock()
		if l.open[ip] >= l.max {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[ip]++
		l.mu.Unlock()
		return &peerConn{Conn: c, release: func() { l.release(ip) }}, nil
	}
}

func (l *peerCapListener) release(ip netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[ip]--; l.open[ip] <= 0 {
		delete(l.open, ip)
	}
}

// peerConn gives its address's slot back once, on the first Close.
type peerConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *peerConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
