package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/sysinit/lan/dnssd"
	"github.com/hearth-appliance/hearth/sysinit/lan/localca"
)

// front puts the CA download and the --plain-http rule in front of the
// API. It is built once, after startTLS has settled both.
func (l *lanParts) front(next http.Handler) http.Handler {
	var caPEM []byte
	if l.ca != nil {
		caPEM = l.ca.CACertPEM()
	}
	return localca.Front(next, caPEM, l.loopbackOnly, l.httpsBase)
}

// startTLS prepares HTTPS and wss on --tls-addr when set, with the
// owner's certificate or the local CA's: it returns the base URL clients
// should be told about (HTTPS when it is on) and the TLS listener for the
// caller to serve once the front handler is built (nil without TLS).
func (m *Main) startTLS(plainBase string, public *api.PublicURL) (string, net.Listener, error) {
	m.lan.loopbackOnly = m.Config.PlainHTTP == "loopback"
	if m.Config.TLSAddr == "" {
		return plainBase, nil, nil
	}
	if gate := os.Getenv("HEARTH_TEST_TLS_GATE"); gate != "" {
		// Test hook: hold TLS start-up until this file exists, to show
		// that nothing is answered before the front handler is final.
		for _, err := os.Stat(gate); err != nil; _, err = os.Stat(gate) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	host, _, _ := net.SplitHostPort(m.Config.TLSAddr)
	ln, err := net.Listen("tcp", m.Config.TLSAddr)
	if err != nil {
		return "", nil, fmt.Errorf("listen on %s: %w", m.Config.TLSAddr, err)
	}
	var getCert func(*tls.ClientHelloInfo) (*tls.Certificate, error)
	if m.Config.TLSCert != "" {
		owner, err := localca.LoadOwnerCert(m.Config.TLSCert, m.Config.TLSKey)
		if err != nil {
			ln.Close()
			return "", nil, err
		}
		getCert = owner.GetCertificate
	} else {
		ips := append(dnssd.LANAddresses(host), net.IPv4(127, 0, 0, 1), net.IPv6loopback)
		ca, err := localca.Open(filepath.Join(m.Config.DataDir, "tls"), tlsNames(m.Config.TLSNames), uniqueIPs(ips), nil)
		if err != nil {
			ln.Close()
			return "", nil, err
		}
		m.lan.ca = ca
		getCert = ca.GetCertificate
	}
	ln = m.capConns(ln, public)
	cfg := &tls.Config{GetCertificate: getCert, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}

	base := "https://" + reachableHost(host, ln.Addr())
	if strings.HasPrefix(m.Config.PublicURL, "https://") {
		base = strings.TrimRight(m.Config.PublicURL, "/")
	}
	m.lan.httpsBase = base
	attrs := []any{"url", base}
	if m.lan.ca != nil {
		attrs = append(attrs, "ca", localca.CAPath)
	}
	m.Logger.Info("hearth serving https", attrs...)
	return base, tls.NewListener(ln, cfg), nil
}

// tlsNames are the DNS names the local CA's certificate covers.
func tlsNames(extra string) []string {
	names := []string{"localhost"}
	if h, err := os.Hostname(); err == nil && h != "" {
		h = strings.ToLower(h)
		names = append(names, h)
		if !strings.Contains(h, ".") {
			names = append(names, h+".local")
		}
	}
	for _, n := range strings.Split(extra, ",") {
		if n = strings.TrimSpace(strings.ToLower(n)); n != "" {
			names = append(names, n)
		}
	}
	return names
}

func uniqueIPs(ips []net.IP) []net.IP {
	seen := map[string]bool{}
	var out []net.IP
	for _, ip := range ips {
		if k := ip.String(); !seen[k] {
			seen[k] = true
			out = append(out, ip)
		}
	}
	return out
}

// reachableHost is host:port a client can dial: the bound port with the
// configured host, or the first LAN address for a wildcard.
func reachableHost(host string, bound net.Addr) string {
	_, port, _ := net.SplitHostPort(bound.String())
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		if ips := dnssd.LANAddresses(host); len(ips) > 0 {
			host = ips[0].String()
		} else {
			host = "127.0.0.1"
		}
	}
	return net.JoinHostPort(host, port)
}

// transport is the clients' socket dialer and HTTP client, trusting --ca
// besides the system's roots when given.
func (c *clientFlags) transport() (*websocket.Dialer, *http.Client, error) {
	if c.ca == "" {
		return websocket.DefaultDialer, http.DefaultClient, nil
	}
	pem, err := os.ReadFile(c.ca)
	if err != nil {
		return nil, nil, usageErr("--ca: %v", err)
	}
	roots, err := x509.SystemCertPool()
	if err != nil || roots == nil {
		roots = x509.NewCertPool()
	}
	if !roots.AppendCertsFromPEM(pem) {
		return nil, nil, usageErr("--ca %s holds no PEM certificate", c.ca)
	}
	cfg := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	d := *websocket.DefaultDialer
	d.TLSClientConfig = cfg
	return &d, &http.Client{Transport: &http.Transport{TLSClientConfig: cfg, Proxy: http.ProxyFromEnvironment}}, nil
}
