package credential

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
)

// Prefix starts every token, so that a token is recognised for what it is
// (by a secret scanner, say).
const Prefix = "lapse_"

// secretBytes is how many random bytes a token carries: 256 bits, which
// makes a plain SHA-256 of the token a safe way to store it (no salt nor
// slow hash is needed against guessing what was never a password).
const secretBytes = 32

// New returns a new token: Prefix and 32 random bytes in unpadded
// base64url, 49 characters in all. It is shown once; only its Hash is
// kept.
func New() string {
	b := make([]byte, secretBytes)
	rand.Read(b) // never fails (crypto/rand panics rather)
	return Prefix + base64.RawURLEncoding.EncodeToString(b)
}

// Hash is what is stored of a token: the hex SHA-256 of its text.
func Hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// namePattern is what a token's name may be: a letter or digit, then up
// to 63 letters, digits, dots, dashes and underscores. A name is recorded
// as the actor of what the token does, and logged.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidName checks a token's name.
func ValidName(name string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("token name %q: want 1-64 letters, digits, '.', '-' or '_', starting with a letter or digit", name)
	}
	return nil
}
