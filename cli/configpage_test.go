package cli

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strings"
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

// TestServeHelpGrouped: lapse serve --help lists every flag once, with
// its default, under the titles of its group, in configGroups' order.
func TestServeHelpGrouped(t *testing.T) {
	var help bytes.Buffer
	fs := serveFlags(&serveConfig{remind: remind.Default()}, &help)
	fs.Usage()
	out := help.String()
	at := 0
	for _, g := range configGroups {
		i := strings.Index(out[at:], "\n"+g.title+":\n")
		if i < 0 {
			t.Fatalf("lapse serve --help: no group %q after byte %d:\n%s", g.title, at, out)
		}
		at += i + 1
	}
	fs.VisitAll(func(f *flag.Flag) {
		if n := strings.Count(out, "\n  -"+f.Name+" ") + strings.Count(out, "\n  -"+f.Name+"\n"); n != 1 {
			t.Errorf("lapse serve --help lists --%s %d times", f.Name, n)
		}
	})
	if !strings.Contains(out, `(default "127.0.0.1:8080")`) {
		t.Errorf("lapse serve --help: --listen's default missing:\n%s", out)
	}
}
