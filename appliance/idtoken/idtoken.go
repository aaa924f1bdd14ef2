// Package idtoken makes the appliance its own identity provider: it signs
// short-lived ID tokens (JWT, EdDSA) with a key kept in the data folder and
// verifies them on every request of the identity-provider surfaces
// (/v1/stt/transcribe, POST /v1/conversations, the console).
package idtoken

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/hearth-appliance/hearth/appliance"
)

// KeyFile is the signing key's file name inside the data folder.
const KeyFile = "identity.key"

// Issuer is the iss claim of every token.
const Issuer = "hearth"

// Signer issues and verifies ID tokens.
type Signer struct {
	priv ed25519.PrivateKey
	pub  ed25519.PublicKey
	// Now is the clock; tests replace it.
	Now func() time.Time
}

// LoadOrCreate reads the signing key from dataDir, creating one (mode 0600)
// on first use. Deleting the file invalidates every token issued before.
func LoadOrCreate(dataDir string) (*Signer, error) {
	path := filepath.Join(dataDir, KeyFile)
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return create(dataDir, path)
	case err != nil:
		return nil, fmt.Errorf("read identity key: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("identity key %s is not a PEM private key", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse identity key %s: %w", path, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("identity key %s is not an Ed25519 key", path)
	}
	return newSigner(priv), nil
}

func create(dataDir, path string) (*Signer, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate identity key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("encode identity key: %w", err)
	}
	// O_EXCL: when two processes race on a fresh data folder, the loser reads
	// the winner's key instead of overwriting it.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return LoadOrCreate(dataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("write identity key: %w", err)
	}
	defer f.Close()
	if err := pem.Encode(f, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
		return nil, fmt.Errorf("write identity key: %w", err)
	}
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("write identity key: %w", err)
	}
	return newSigner(priv), nil
}

func newSigner(priv ed25519.PrivateKey) *Signer {
	return &Signer{priv: priv, pub: priv.Public().(ed25519.PublicKey), Now: time.Now}
}

// Issue returns a token for uid that expires after ttl.
func (s *Signer) Issue(uid string, ttl time.Duration) (string, error) {
	now := s.Now()
	claims := jwt.RegisteredClaims{
		Issuer:    Issuer,
		Subject:   uid,
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now.Add(-time.Minute)), // tolerate small clock skew
		ExpiresAt: jwt.NewNumericDate(now.Add(ttl)),
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims).SignedString(s.priv)
	if err != nil {
		return "", fmt.Errorf("sign token: %w", err)
	}
	return tok, nil
}

// ErrInvalid is returned for any token that does not verify; the reason is
// wrapped for logs and never shown to clients.
var ErrInvalid = errors.New("invalid ID token")

// Verify checks signature, algorithm, issuer and expiry, and returns the uid.
func (s *Signer) Verify(token string) (string, error) {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.pub, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodEdDSA.Alg()}),
		jwt.WithIssuer(Issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.Now),
	)
	if errors.Is(err, jwt.ErrTokenExpired) {
		return "", fmt.Errorf("%w: %w: %w", ErrInvalid, appliance.ErrExpiredToken, err)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if claims.Subject == "" {
		return "", fmt.Errorf("%w: no subject", ErrInvalid)
	}
	return claims.Subject, nil
}

// Subject reads a token's uid without verifying it: for a client that was
// handed a token and must name its user (the appliance verifies it).
func Subject(token string) (string, error) {
	var claims jwt.RegisteredClaims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &claims); err != nil {
		return "", fmt.Errorf("not an ID token: %w", err)
	}
	if claims.Subject == "" {
		return "", errors.New("not an ID token: no subject")
	}
	return claims.Subject, nil
}
