package docs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// contractPath is the contract, API.md in the shared/ beside the project
// (or beside a directory holding it, as for a git worktree); "" if there
// is none.
func contractPath(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for parent := filepath.Dir(dir); parent != dir; dir, parent = parent, filepath.Dir(parent) {
		p := filepath.Join(parent, "shared", "API.md")
		if _, err := os.Stat(p); err == nil {
			return p
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	return ""
}

// contractRow is a row of api.md's table of the lines its copy of the
// contract changes: the contract's line, then the page's.
var contractRow = regexp.MustCompile("(?m)^\\| `(.+)` \\| `(.+)` \\|$")

// TestDocsAPIDiffers fails unless the section "The contract" of api.md is
// the contract, shared/API.md, but for exactly the lines the table before
// it lists, each of which names one line of the contract: so the copy
// keeps up with the contract, and says how it differs. The contract is
// testdata/contract.md, a copy of shared/API.md that fails the test where
// shared/ is beside the project and the copy has fallen behind it (a
// clone alone, as CI's may be, still compares the page with the copy).
func TestDocsAPIDiffers(t *testing.T) {
	const path = "testdata/contract.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if shared := contractPath(t); shared != "" {
		now, err := os.ReadFile(shared)
		if err != nil {
			t.Fatal(err)
		}
		if string(now) != string(raw) {
			t.Fatalf("%s is not %s: copy the contract again (cp %s docs/%s)", path, shared, shared, path)
		}
	}
	page, err := os.ReadFile("api.md")
	if err != nil {
		t.Fatal(err)
	}
	note, rest, ok := strings.Cut(string(page), "\n## The contract\n")
	copied, _, ok2 := strings.Cut(rest, "\n## Beyond the contract\n")
	if !ok || !ok2 {
		t.Fatal("api.md: no section The contract followed by Beyond the contract")
	}
	_, table, _ := strings.Cut(note, "**How this copy differs from the contract's text.**")
	rows := contractRow.FindAllStringSubmatch(table, -1)
	if len(rows) == 0 {
		t.Fatal("api.md: no table of the lines its copy of the contract changes")
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	for _, row := range rows {
		var n int
		for i, l := range lines {
			if l == row[1] {
				lines[i] = row[2]
				n++
			}
		}
		if n != 1 {
			t.Errorf("api.md: the change of %q names %d lines of the contract, want 1", row[1], n)
		}
	}
	want := strings.Split("## The contract\n"+strings.TrimRight(copied, "\n"), "\n")
	for i := range max(len(lines), len(want)) {
		var got, w string
		if i < len(lines) {
			got = lines[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if got != w {
			t.Fatalf("api.md's copy of %s, line %d: %q, where the contract with the listed changes has %q", path, i+1, w, got)
		}
	}
}
