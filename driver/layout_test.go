package driver_test

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lapsehq/lapse/"

// TestLayout checks the import graph says who owns what: the contract
// reaches only the domain and storetype, storetype reaches neither the
// contract nor the service, and nothing under driver/ (backends, their
// shared helpers, the contract's suite) reaches the service. Test files
// are left out: a backend's tests run the service's suite over it.
func TestLayout(t *testing.T) {
	graph := imports(t, "..")
	for _, c := range []struct {
		from    string
		allowed func(to string) bool
	}{
		{"driver", func(to string) bool {
			return slices.Contains([]string{"coupon", "order", "remind", "storetype", "input", "credential"}, to)
		}},
		{"storetype", func(to string) bool { return to != "driver" && to != "store" && !strings.HasPrefix(to, "driver/") }},
	} {
		for _, to := range reach(graph, c.from) {
			if !c.allowed(to) {
				t.Errorf("%s reaches %s", c.from, to)
			}
		}
	}
	for pkg := range graph {
		if pkg != "driver" && !strings.HasPrefix(pkg, "driver/") {
			continue
		}
		if slices.Contains(reach(graph, pkg), "store") {
			t.Errorf("%s reaches the service (store)", pkg)
		}
	}
	if len(graph["driver/sqlite"]) == 0 {
		t.Fatalf("read no imports of driver/sqlite: the walk is broken")
	}
}

// imports returns the module's packages under root, each with the
// module packages its non-test files import, by path inside the module.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		} else if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		var in []string
		for _, imp := range p.Imports {
			if to, ok := strings.CutPrefix(imp, module); ok {
				in = append(in, to)
			}
		}
		graph[filepath.ToSlash(rel)] = in
		return nil
	})
	if err != nil {
		t.Fatalf("walk the module: %v", err)
	}
	return graph
}

// reach returns every package from imports, directly or not.
func reach(graph map[string][]string, from string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, to := range graph[p] {
			if !seen[to] {
				seen[to] = true
				walk(to)
			}
		}
	}
	walk(from)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
