package console

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// Passwords are stored as PBKDF2-SHA256 (the standard library's) with a
// random salt: "pbkdf2-sha256$<iterations>$<salt>$<key>", base64 without
// padding. 600,000 iterations is OWASP's figure for PBKDF2-SHA256; the
// count is stored so that it can rise without invalidating old hashes.
const (
	pbkdf2Iterations = 600_000
	pbkdf2KeyLen     = 32
)

func hashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	rand.Read(salt) // never fails (crypto/rand, Go ≥ 1.24)
	key, err := pbkdf2.Key(sha256.New, password, salt, pbkdf2Iterations, pbkdf2KeyLen)
	if err != nil {
		return "", err
	}
	enc := base64.RawStdEncoding
	return fmt.Sprintf("pbkdf2-sha256$%d$%s$%s", pbkdf2Iterations, enc.EncodeToString(salt), enc.EncodeToString(key)), nil
}

// checkPassword compares in constant time; a malformed hash never matches.
func checkPassword(stored, password string) bool {
	parts := strings.Split(stored, "$")
	if len(parts) != 4 || parts[0] != "pbkdf2-sha256" {
		return false
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1 {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[2])
	want, err2 := enc.DecodeString(parts[3])
	if err1 != nil || err2 != nil {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, password, salt, iter, len(want))
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}
