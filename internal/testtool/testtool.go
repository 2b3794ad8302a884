// Package testtool finds the programs outside Go that some tests drive
// (promtool, chromium) and runs the servers some start (see Group).
package testtool

import (
	"os"
	"os/exec"
	"testing"
)

// Path returns the program name to run: the environment variable env if
// set (CI sets it, so there a missing program fails the test), else name
// on PATH; with neither, it skips t, saying to install Debian's package
// pkg.
func Path(t testing.TB, env, name, pkg string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("no %s on PATH and %s unset: install Debian's %s package", name, env, pkg)
	}
	return p
}
