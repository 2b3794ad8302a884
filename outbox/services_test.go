package outbox_test

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// serviceURL returns the URL of a test service from env, skipping t if it
// is unset.
func serviceURL(t testing.TB, env string) string {
	t.Helper()
	u := os.Getenv(env)
	if u == "" {
		t.Skipf("%s is unset: set it to run this test against a real server, as .ci/services.sh does", env)
	}
	return u
}

// unique returns a name no other test run uses.
func unique(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
}
