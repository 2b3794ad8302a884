package redistest

import (
	"os"
	"os/exec"
	"testing"
)

// Bin returns the redis-server to run; it skips t without
// LAPSE_TEST_REDIS and fails it without the program.
func Bin(t testing.TB) string {
	t.Helper()
	if os.Getenv("LAPSE_TEST_REDIS") == "" {
		t.Skip("LAPSE_TEST_REDIS unset: no Redis here")
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server: %v", err)
	}
	return bin
}
