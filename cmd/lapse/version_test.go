package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestVersion: lapse version prints the version the build recorded and
// the Go version, and lapse_build_info on /metrics carries the same.
func TestVersion(t *testing.T) {
	fields := map[string]string{}
	for _, line := range strings.Split(run(t, "version"), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("lapse version: line %q is not a name and a value", line)
		}
		fields[name] = strings.TrimSpace(value)
	}
	if fields["version"] == "" {
		t.Errorf("lapse version: no version in %v", fields)
	}
	if fields["go"] != runtime.Version() {
		t.Errorf("lapse version: go %q, want %q", fields["go"], runtime.Version())
	}
	s := start(t, sqliteBackend.store(t))
	sample := fmt.Sprintf(`lapse_build_info{goversion=%q,revision=%q,version=%q}`, fields["go"], fields["revision"], fields["version"])
	if got := s.metric(t, sample); got != 1 {
		t.Errorf("/metrics: %s is %g, want 1", sample, got)
	}
}
