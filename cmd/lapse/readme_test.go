package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// tryIt returns the commands of the README's "Try it" block, a
// continued line joined to its next.
func tryIt(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatalf("read README: %v", err)
	}
	_, rest, ok := strings.Cut(string(readme), "## Try it\n\n```sh\n")
	block, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatalf("README: no Try it block")
	}
	var cmds []string
	for line := range strings.SplitSeq(strings.ReplaceAll(block, "\\\n", ""), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// TestReadmeTryIt runs the README's Try it block, as it stands, against
// lapse serve on loopback with no API token (the first run): on a free
// port in place of 8080, with the template's ID where the README writes
// tpl_…. Each command must answer what its comment says.
func TestReadmeTryIt(t *testing.T) {
	s := start(t, sqliteBackend.store(t))
	addr := strings.TrimPrefix(s.base, "http://")
	var tpl string
	for _, cmd := range tryIt(t) {
		want := ""
		if _, comment, ok := strings.Cut(cmd, "# "); ok {
			want = comment
		}
		line := strings.ReplaceAll(cmd, "localhost:8080", addr)
		line = strings.ReplaceAll(line, "tpl_…", tpl)
		out, err := exec.Command("bash", "-c", line).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		got := string(out)
		if tpl == "" && strings.Contains(cmd, "/v1/templates") {
			m := regexp.MustCompile(`"id":"(tpl_[^"]+)"`).FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("%s: got %s, want a template", cmd, got)
			}
			tpl = m[1]
		}
		for w := range strings.SplitSeq(want, ", ") {
			if w != "" && !strings.Contains(got, w) {
				t.Fatalf("%s: got %s, want %s", cmd, got, w)
			}
		}
		if strings.Contains(cmd, "grep ^lapse_") && !strings.HasPrefix(got, "lapse_") {
			t.Fatalf("%s: got %q, want lapse's metrics", cmd, got)
		}
		t.Logf("%s\n%s", cmd, got)
	}
	if tpl == "" {
		t.Fatalf("the Try it block made no template")
	}
}
