package cli

import (
	"strings"
	"testing"
)

// TestLogFormatForced: LAPSE_LOG_FORMAT=text, and --log-format text over
// LAPSE_LOG_FORMAT=json, give text lines where no terminal would have
// JSON.
func TestLogFormatForced(t *testing.T) {
	for _, c := range []struct {
		env  string
		args []string
	}{{"text", nil}, {"json", []string{"--log-format", "text"}}} {
		t.Setenv("LAPSE_LOG_FORMAT", c.env)
		s := startServe(t, c.args...)
		s.cancel()
		if err := <-s.done; err != nil {
			t.Fatalf("serve: %v", err)
		}
		s.done <- nil // for the cleanup
		for l := range strings.Lines(s.out.String()) {
			if !strings.HasPrefix(l, "time=") || !strings.Contains(l, ` msg="lapse: `) {
				t.Fatalf("LAPSE_LOG_FORMAT=%s %v: line %q is not a text record of lapse", c.env, c.args, l)
			}
		}
	}
}
