package main

import (
	"strings"
	"testing"
)

// TestLogLevel: --log-level warn keeps lapse serve's info lines out of
// its log, which the default, info, has; a level lapse has not exits 2
// saying which it has.
func TestLogLevel(t *testing.T) {
	const serving = "lapse: serving"
	if s := start(t, sqliteBackend.store(t)); !strings.Contains(s.log.String(), serving) {
		t.Errorf("default level: no %q in the log:\n%s", serving, s.log.String())
	}
	if s := start(t, sqliteBackend.store(t), "--log-level", "warn"); strings.Contains(s.log.String(), serving) {
		t.Errorf("--log-level warn: %q in the log:\n%s", serving, s.log.String())
	}
	_, stderr, code := lapseExit(t, "serve", "--log-level", "loud")
	if code != 2 || !strings.Contains(stderr, "want debug, info, warn or error") {
		t.Errorf("--log-level loud: exit %d, stderr %q; want 2 and the levels", code, stderr)
	}
}
