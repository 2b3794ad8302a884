package clientsuite_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// clientModule is the client module's directory, from this package's.
const clientModule = "../../client"

// goIn runs the go command in the client module alone (no workspace), as
// a user's build sees it, and returns its output.
func goIn(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = clientModule
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), clientModule, err, out)
	}
	return string(out)
}

// TestClientModule builds, vets and tests the client module on its own,
// so that the root's go test ./... covers it, and checks that it needs
// nothing beyond the standard library: importing the client brings none
// of the server's dependencies.
func TestClientModule(t *testing.T) {
	goIn(t, "vet", "./...")
	goIn(t, "test", "./...")
	// The module of every package the client's builds and tests load
	// that is not the standard library's.
	mods := strings.Fields(goIn(t, "list", "-deps", "-test", "-f", "{{if not .Standard}}{{with .Module}}{{.Path}}{{else}}{{.ImportPath}}{{end}}{{end}}", "./..."))
	deps := slices.Compact(slices.DeleteFunc(slices.Sorted(slices.Values(mods)), func(m string) bool { return m == "github.com/lapsehq/lapse/client" }))
	if len(deps) > 0 {
		t.Errorf("the client module depends on %q; want the standard library only", deps)
	}
}
