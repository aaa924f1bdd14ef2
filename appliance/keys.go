package appliance

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// keySecretBytes is the random part of a key: 16 bytes, 32 hex characters.
const keySecretBytes = 16

// NewKeySecret returns a fresh raw key of the given family, the hash that is
// stored in its place, and the display form shown in listings.
func NewKeySecret(kind KeyKind) (raw, hash, display string) {
	b := make([]byte, keySecretBytes)
	rand.Read(b) // never returns an error (crypto/rand, Go ≥ 1.24)
	secret := hex.EncodeToString(b)
	raw = kind.Prefix() + secret
	return raw, hashSecret(secret), kind.Prefix() + secret[:4] + "..." + secret[len(secret)-4:]
}

// ParseKey splits a presented key into its family and the hash to look up.
// ok is false when the string is not a well-formed Hearth key.
func ParseKey(raw string) (kind KeyKind, hash string, ok bool) {
	var secret string
	switch {
	case strings.HasPrefix(raw, DevKeyPrefix):
		kind, secret = KeyKindDev, raw[len(DevKeyPrefix):]
	case strings.HasPrefix(raw, MCPKeyPrefix):
		kind, secret = KeyKindMCP, raw[len(MCPKeyPrefix):]
	case strings.HasPrefix(raw, STTKeyPrefix):
		kind, secret = KeyKindSTT, raw[len(STTKeyPrefix):]
	default:
		return "", "", false
	}
	if len(secret) != 2*keySecretBytes {
		return kind, "", false
	}
	if _, err := hex.DecodeString(secret); err != nil {
		return kind, "", false
	}
	return kind, hashSecret(strings.ToLower(secret)), true
}

// hashSecret is sha256 of the hex secret without its prefix, as the
// reference stores it.
func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// HashToken is how OAuth codes and tokens are stored: the hex SHA-256 of
// the whole token, so a leaked database holds no usable credential.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
