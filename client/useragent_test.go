package client

import (
	"runtime/debug"
	"testing"
)

// TestVersionIn: the User-Agent's version is the client module's as the
// program's build information names it, "devel" for a replaced or local
// copy or none.
func TestVersionIn(t *testing.T) {
	dep := func(m debug.Module) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "example.com/app", Version: "(devel)"}, Deps: []*debug.Module{&m}}
	}
	for _, c := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"a dependency", dep(debug.Module{Path: modulePath, Version: "v0.3.1"}), "v0.3.1"},
		{"replaced", dep(debug.Module{Path: modulePath, Version: "v0.0.0-00010101000000-000000000000", Replace: &debug.Module{Path: "./client"}}), "devel"},
		{"the main module", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}}, "devel"},
		{"another module", dep(debug.Module{Path: "example.com/other", Version: "v1.0.0"}), "devel"},
		{"no build information", nil, "devel"},
	} {
		if got := versionIn(c.info); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
