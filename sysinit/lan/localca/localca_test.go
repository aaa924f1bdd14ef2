package localca

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func pool(t *testing.T, a *Authority) *x509.CertPool {
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(a.CACertPEM()) {
		t.Fatal("CA PEM does not parse")
	}
	return p
}

// TestHTTPSWithLocalCA: a real TLS client that trusts only the generated
// CA reaches the box by name and by address; an untrusting one is refused.
func TestHTTPSWithLocalCA(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	a, err := Open(dir, []string{"localhost", "closet.local"}, []net.IP{net.IPv4(127, 0, 0, 1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"ca.key", "ca.crt", "server.key", "server.crt"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v, want mode 0600", f, err, st)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }),
		ErrorLog: log.New(io.Discard, "", 0)}
	go srv.Serve(tls.NewListener(ln, &tls.Config{GetCertificate: a.GetCertificate, MinVersion: tls.VersionTLS12}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool(t, a)}}}
	for _, host := range []string{"127.0.0.1", "localhost"} {
		resp, err := trusting.Get("https://" + net.JoinHostPort(host, port) + "/")
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "hello" {
			t.Fatalf("%s: body %q", host, body)
		}
	}
	if _, err := http.Get("https://" + net.JoinHostPort("127.0.0.1", port) + "/"); err == nil {
		t.Fatal("a client without the CA accepted the certificate")
	}

	// Reopening keeps the CA (phones trusted it) and the valid certificate.
	b, err := Open(dir, []string{"localhost", "closet.local"}, []net.IP{net.IPv4(127, 0, 0, 1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(b.CACertPEM()) != string(a.CACertPEM()) {
		t.Fatal("reopening made a new CA")
	}
	if b.server.Leaf.SerialNumber.Cmp(a.server.Leaf.SerialNumber) != 0 {
		t.Fatal("reopening reissued a valid server certificate")
	}
	// A new name (the owner renamed the box) gets a new certificate.
	c, err := Open(dir, []string{"attic.local"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.server.Leaf.VerifyHostname("attic.local") != nil {
		t.Fatal("new name not in the certificate")
	}
}

func TestRenewsBeforeExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, err := Open(t.TempDir(), []string{"closet.local"}, nil, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	first, _ := a.GetCertificate(nil)
	if first.Leaf.NotAfter.Sub(now) < 80*24*time.Hour {
		t.Fatalf("server certificate lives only until %v", first.Leaf.NotAfter)
	}
	now = now.Add(30 * 24 * time.Hour)
	if same, _ := a.GetCertificate(nil); same != first {
		t.Fatal("renewed a certificate with two months left")
	}
	now = first.Leaf.NotAfter.Add(-20 * 24 * time.Hour)
	renewed, err := a.GetCertificate(nil)
	if err != nil {
		t.Fatal(err)
	}
	if renewed == first || !renewed.Leaf.NotAfter.After(first.Leaf.NotAfter) {
		t.Fatalf("not renewed 20 days before expiry: %v", renewed.Leaf.NotAfter)
	}
	if _, err := renewed.Leaf.Verify(x509.VerifyOptions{Roots: pool(t, a), DNSName: "closet.local", CurrentTime: now}); err != nil {
		t.Fatalf("renewed certificate does not verify: %v", err)
	}
}

func TestIncompleteCARefused(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ca.crt"), []byte("x"), 0o600)
	if _, err := Open(dir, []string{"x"}, nil, nil); err == nil {
		t.Fatal("opened with ca.crt but no ca.key")
	}
}

func TestOwnerCertReloads(t *testing.T) {
	mk := func(dir string) (string, string) {
		a, err := Open(dir, []string{"owner.example"}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = a
		return filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key")
	}
	c1, k1 := mk(t.TempDir())
	c2, k2 := mk(t.TempDir())
	live := t.TempDir()
	cert, key := filepath.Join(live, "c.pem"), filepath.Join(live, "k.pem")
	cp := func(src, dst string) {
		b, _ := os.ReadFile(src)
		os.WriteFile(dst, b, 0o600)
	}
	cp(c1, cert)
	cp(k1, key)
	o, err := LoadOwnerCert(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := o.GetCertificate(nil)
	cp(c2, cert)
	cp(k2, key)
	later := time.Now().Add(time.Minute)
	os.Chtimes(cert, later, later)
	after, _ := o.GetCertificate(nil)
	if string(after.Certificate[0]) == string(before.Certificate[0]) {
		t.Fatal("a replaced certificate was not picked up")
	}
	if _, err := LoadOwnerCert(cert, filepath.Join(live, "missing")); err == nil {
		t.Fatal("a missing key was accepted")
	}
}
