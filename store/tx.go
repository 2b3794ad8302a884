package store

import (
	"errors"
)

// errNoRow: a guarded write changed nothing.
var errNoRow = errors.New("guarded write changed no row")

// orErr returns err if set, else fallback.
func orErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
