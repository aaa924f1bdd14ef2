// Package localca gives a box on a home network HTTPS without a public
// name: a local certificate authority (ECDSA P-256, kept in DATA/tls with
// 0600 keys) signs a short-lived server certificate for the box's names and
// addresses and signs a new one before it expires. Owners who trust the CA
// once (its certificate is served for download) get verified HTTPS and wss.
// An owner-supplied certificate and key can replace it.
package localca

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

const (
	caLifetime     = 10 * 365 * 24 * time.Hour
	serverLifetime = 90 * 24 * time.Hour
	// A server certificate is replaced once two thirds of its life have
	// passed, leaving a month of slack for clocks and long-running clients.
	renewAfter = serverLifetime * 2 / 3
)

// Authority is the local CA and the server certificate it keeps current.
type Authority struct {
	dir   string
	names []string
	ips   []net.IP
	now   func() time.Time

	caCert *x509.Certificate
	caKey  crypto.Signer
	caPEM  []byte

	mu     sync.Mutex
	server *tls.Certificate
}

// Open loads the CA from dir (DATA/tls), creating it on first use, and a
// server certificate for names and ips, issuing one if none is valid.
// now is the clock (nil: time.Now).
func Open(dir string, names []string, ips []net.IP, now func() time.Time) (*Authority, error) {
	if now == nil {
		now = time.Now
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("tls dir: %w", err)
	}
	a := &Authority{dir: dir, names: names, ips: ips, now: now}
	if err := a.loadOrCreateCA(); err != nil {
		return nil, err
	}
	if cert, err := tls.LoadX509KeyPair(a.path("server.crt"), a.path("server.key")); err == nil && a.fresh(&cert) {
		a.server = &cert
	} else if err := a.issue(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *Authority) path(name string) string { return filepath.Join(a.dir, name) }

// CACertPEM is the CA certificate to install on phones and laptops.
func (a *Authority) CACertPEM() []byte { return a.caPEM }

// GetCertificate serves tls.Config: the current server certificate,
// renewed first when it is due.
func (a *Authority) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.fresh(a.server) {
		if err := a.issue(); err != nil {
			return nil, err
		}
	}
	return a.server, nil
}

// fresh: signed by this CA, for these names, and not yet due for renewal.
func (a *Authority) fresh(c *tls.Certificate) bool {
	if c == nil || len(c.Certificate) == 0 {
		return false
	}
	leaf, err := x509.ParseCertificate(c.Certificate[0])
	if err != nil || leaf.CheckSignatureFrom(a.caCert) != nil {
		return false
	}
	if a.now().After(leaf.NotBefore.Add(renewAfter)) || a.now().After(leaf.NotAfter) {
		return false
	}
	for _, n := range a.names {
		if leaf.VerifyHostname(n) != nil {
			return false
		}
	}
	for _, ip := range a.ips {
		if leaf.VerifyHostname(ip.String()) != nil {
			return false
		}
	}
	return true
}

func (a *Authority) loadOrCreateCA() error {
	certPEM, cerr := os.ReadFile(a.path("ca.crt"))
	keyPEM, kerr := os.ReadFile(a.path("ca.key"))
	if cerr == nil && kerr == nil {
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			return fmt.Errorf("local CA in %s: %w", a.dir, err)
		}
		a.caCert, _ = x509.ParseCertificate(pair.Certificate[0])
		a.caKey = pair.PrivateKey.(crypto.Signer)
		a.caPEM = certPEM
		return nil
	}
	if !errors.Is(cerr, os.ErrNotExist) || !errors.Is(kerr, os.ErrNotExist) {
		return fmt.Errorf("local CA in %s is incomplete (ca.crt: %v, ca.key: %v); move both away to start a new one", a.dir, cerr, kerr)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("ca key: %w", err)
	}
	host, _ := os.Hostname()
	now := a.now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "Hearth local CA (" + host + ")", Organization: []string{"Hearth"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(caLifetime),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("ca certificate: %w", err)
	}
	a.caCert, _ = x509.ParseCertificate(der)
	a.caKey = key
	a.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := writeKey(a.path("ca.key"), key); err != nil {
		return err
	}
	return write0600(a.path("ca.crt"), a.caPEM)
}

// issue signs a new server certificate and stores it (0600).
func (a *Authority) issue() error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("server key: %w", err)
	}
	now := a.now()
	cn := "hearth"
	if len(a.names) > 0 {
		cn = a.names[0]
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: cn, Organization: []string{"Hearth"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(serverLifetime),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     a.names,
		IPAddresses:  a.ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.caCert, &key.PublicKey, a.caKey)
	if err != nil {
		return fmt.Errorf("server certificate: %w", err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := writeKey(a.path("server.key"), key); err != nil {
		return err
	}
	if err := write0600(a.path("server.crt"), certPEM); err != nil {
		return err
	}
	leaf, _ := x509.ParseCertificate(der)
	a.server = &tls.Certificate{Certificate: [][]byte{der, a.caCert.Raw}, PrivateKey: key, Leaf: leaf}
	return nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}

func writeKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return fmt.Errorf("encode key: %w", err)
	}
	return write0600(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// write0600 replaces path atomically with a file only the owner can read.
func write0600(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}
