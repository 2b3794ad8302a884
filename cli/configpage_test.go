package cli

import (
	"bytes"
	"flag"
	"io"
	"os"
	"testing"

	"github.com/lapsehq/lapse/remind"
)

var update = flag.Bool("update", false, "rewrite docs/configuration.md from lapse serve's flags")

// TestConfigPage fails when docs/configuration.md and lapse serve's flag
// set disagree: a flag added, dropped or changed without the page
// regenerated (go test ./cli -run TestConfigPage -update).
func TestConfigPage(t *testing.T) {
	c := serveConfig{remind: remind.Default()}
	fs := serveFlags(&c, io.Discard)
	seen := map[string]bool{}
	for _, g := range configGroups {
		for _, n := range g.flags {
			if seen[n] {
				t.Errorf("configGroups: --%s in two groups", n)
			}
			seen[n] = true
			if fs.Lookup(n) == nil {
				t.Errorf("configGroups: --%s is no flag of lapse serve", n)
			}
		}
	}
	var page bytes.Buffer
	writeConfigPage(&page, fs)
	const path = "../docs/configuration.md"
	if *update {
		if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, page.Bytes()) {
		t.Errorf("%s is not what lapse serve's flags make; run go test ./cli -run TestConfigPage -update", path)
	}
	fs.VisitAll(func(f *flag.Flag) {
		if !bytes.Contains(got, []byte("| `--"+f.Name+"` |")) {
			t.Errorf("%s: no row for --%s", path, f.Name)
		}
	})
}
