// Package firebasetest stands in for Firebase in tests: a certificate
// endpoint on loopback that serves its own RSA keys' certificates as
// Google's does (key id → PEM, with Cache-Control max-age), and tokens
// signed with those keys carrying the claims a real Firebase ID token
// carries.
package firebasetest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Issuer is a Firebase project's signing keys and their certificate
// endpoint.
type Issuer struct {
	ProjectID string
	// URL is the certificate endpoint (--firebase-certs-url).
	URL string

	mu      sync.Mutex
	keys    map[string]*rsa.PrivateKey
	served  map[string]string // key id → PEM certificate, what the endpoint answers
	current string            // the key id tokens are signed with
	maxAge  int
	failing bool
	fetches int
	seq     int
}

// New starts an issuer for projectID with one key, served with max-age
// 3600; the endpoint closes with the test.
func New(tb testing.TB, projectID string) *Issuer {
	tb.Helper()
	i := &Issuer{ProjectID: projectID, keys: map[string]*rsa.PrivateKey{}, served: map[string]string{}, maxAge: 3600}
	i.Rotate(tb)
	srv := httptest.NewServer(http.HandlerFunc(i.serveCerts))
	tb.Cleanup(srv.Close)
	i.URL = srv.URL + "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
	return i
}

func (i *Issuer) serveCerts(w http.ResponseWriter, _ *http.Request) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.fetches++
	if i.failing {
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d, must-revalidate, no-transform", i.maxAge))
	json.NewEncoder(w).Encode(i.served)
}

// Rotate makes a new key, signs tokens with it from now on, and serves
// only its certificate (as after Google retires a key); it returns the
// new key id.
func (i *Issuer) Rotate(tb testing.TB) string {
	tb.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "securetoken.system.gserviceaccount.com"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.seq++
	kid := fmt.Sprintf("test-key-%d", i.seq)
	i.keys[kid] = key
	i.served = map[string]string{kid: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
	i.current = kid
	return kid
}

// SetMaxAge sets the Cache-Control max-age of later answers, in seconds.
func (i *Issuer) SetMaxAge(seconds int) { i.mu.Lock(); i.maxAge = seconds; i.mu.Unlock() }

// SetFailing makes the endpoint answer 503 (true) or the certificates.
func (i *Issuer) SetFailing(failing bool) { i.mu.Lock(); i.failing = failing; i.mu.Unlock() }

// Fetches is how many requests the endpoint has answered.
func (i *Issuer) Fetches() int { i.mu.Lock(); defer i.mu.Unlock(); return i.fetches }

// Claims are what a Firebase ID token for uid issued at now carries: an
// hour of validity, signed in at now.
func (i *Issuer) Claims(uid string, now time.Time) jwt.MapClaims {
	return jwt.MapClaims{
		"iss":       "https://securetoken.google.com/" + i.ProjectID,
		"aud":       i.ProjectID,
		"auth_time": now.Unix(),
		"user_id":   uid,
		"sub":       uid,
		"iat":       now.Unix(),
		"exp":       now.Add(time.Hour).Unix(),
		"firebase":  map[string]any{"identities": map[string]any{}, "sign_in_provider": "password"},
	}
}

// Sign signs claims with the current key, naming it in kid.
func (i *Issuer) Sign(tb testing.TB, claims jwt.MapClaims) string {
	tb.Helper()
	i.mu.Lock()
	kid, key := i.current, i.keys[i.current]
	i.mu.Unlock()
	t := jwt.NewWithClaims(jwt.SigningMethodRS256, claims)
	t.Header["kid"] = kid
	s, err := t.SignedString(key)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// Token is a valid Firebase ID token for uid, issued now.
func (i *Issuer) Token(tb testing.TB, uid string) string {
	tb.Helper()
	return i.Sign(tb, i.Claims(uid, time.Now()))
}
