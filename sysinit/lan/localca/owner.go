package localca

import (
	"crypto/tls"
	"fmt"
	"os"
	"sync"
	"time"
)

// OwnerCert serves a certificate and key the owner supplies (for example
// from their own CA or an ACME client), reloading them when either file
// changes so a renewal needs no restart.
type OwnerCert struct {
	certFile, keyFile string

	mu      sync.Mutex
	cert    *tls.Certificate
	modTime time.Time
}

// LoadOwnerCert reads the pair once, so a bad file is reported at start.
func LoadOwnerCert(certFile, keyFile string) (*OwnerCert, error) {
	o := &OwnerCert{certFile: certFile, keyFile: keyFile}
	if err := o.reload(); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *OwnerCert) latest() time.Time {
	var t time.Time
	for _, f := range []string{o.certFile, o.keyFile} {
		if st, err := os.Stat(f); err == nil && st.ModTime().After(t) {
			t = st.ModTime()
		}
	}
	return t
}

func (o *OwnerCert) reload() error {
	mod := o.latest()
	cert, err := tls.LoadX509KeyPair(o.certFile, o.keyFile)
	if err != nil {
		return fmt.Errorf("tls certificate %s / key %s: %w", o.certFile, o.keyFile, err)
	}
	o.cert, o.modTime = &cert, mod
	return nil
}

// GetCertificate serves tls.Config; a pair that fails to load after a
// change keeps the previous one in service.
func (o *OwnerCert) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.latest().After(o.modTime) {
		_ = o.reload()
	}
	return o.cert, nil
}
