package docs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// pages are the Markdown files whose links are checked: the README and
// the manual.
func pages(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pages: %v", err)
	}
	return append([]string{"../README.md"}, files...)
}

// prose is page without its fenced code blocks and code spans, where
// neither links nor headings are.
func prose(page string) string {
	var b strings.Builder
	fenced := false
	for line := range strings.SplitSeq(page, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced && !strings.HasPrefix(line, "    ") {
			b.WriteString(codeSpan.ReplaceAllString(line, "code") + "\n")
		}
	}
	return b.String()
}

var (
	codeSpan = regexp.MustCompile("`[^`]*`")
	link     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading  = regexp.MustCompile(`(?m)^#{1,6} +(.+)$`)
)

// anchors are the fragments GitHub gives a page's headings: lower case,
// punctuation dropped, spaces as dashes, a repeated one numbered.
func anchors(page string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	// Headings are read with their code spans, which GitHub keeps as text.
	var text strings.Builder
	fenced := false
	for line := range strings.SplitSeq(page, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		} else if !fenced {
			text.WriteString(line + "\n")
		}
	}
	for _, m := range heading.FindAllStringSubmatch(text.String(), -1) {
		slug := strings.Map(func(r rune) rune {
			switch {
			case r == ' ':
				return '-'
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				return unicode.ToLower(r)
			}
			return -1
		}, strings.TrimSpace(m[1]))
		if n := seen[slug]; n > 0 {
			out[slug+"-"+string(rune('0'+n))] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// TestDocsLinks fails on a relative link of the README or the manual that
// names no file of the repository, or no heading of the page it names.
// Links to the web are not followed.
func TestDocsLinks(t *testing.T) {
	for _, page := range pages(t) {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(prose(string(raw)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			file := page
			if path != "" {
				file = filepath.Join(filepath.Dir(page), path)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: link %s: no such file", page, target)
				continue
			}
			if frag == "" {
				continue
			}
			named, err := os.ReadFile(file)
			if err != nil || !strings.HasSuffix(file, ".md") {
				t.Errorf("%s: link %s: an anchor in a file that is not a page", page, target)
				continue
			}
			if !anchors(string(named))[frag] {
				t.Errorf("%s: link %s: %s has no heading #%s", page, target, file, frag)
			}
		}
	}
}

// TestDocsAPIRoutes fails when a path of the OpenAPI document lapse
// serves is missing from api.md.
func TestDocsAPIRoutes(t *testing.T) {
	raw, err := os.ReadFile("../httpapi/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("api.md")
	if err != nil {
		t.Fatal(err)
	}
	for path := range doc.Paths {
		if path == "/" || strings.HasPrefix(path, "/console/") {
			continue // the console's page and files, named in operations.md
		}
		if !strings.Contains(string(page), path) {
			t.Errorf("api.md does not name %s", path)
		}
	}
}
