package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// helpOf returns the usage line lapse line... --help starts with and the
// flags it lists.
func helpOf(t *testing.T, line []string) (usage string, flags map[string]bool) {
	t.Helper()
	stdout, _, code := lapseExit(t, append(slices.Clone(line), "--help")...)
	if code != 0 {
		t.Fatalf("lapse %v --help: exit %d", line, code)
	}
	usage, _, _ = strings.Cut(stdout, "\n")
	flags = map[string]bool{}
	for l := range strings.Lines(stdout) {
		if name, ok := strings.CutPrefix(l, "  -"); ok {
			name, _, _ = strings.Cut(strings.TrimSpace(name), " ")
			flags[name] = true
		}
	}
	return usage, flags
}

var (
	fence    = regexp.MustCompile("(?m)^```[a-z]*\n((?s:.*?))^```$")
	span     = regexp.MustCompile("`([^`\n]+)`")
	flagWord = regexp.MustCompile(`(?:^|\s|\[|\()--([a-z][a-z0-9-]*)`)
)

// commandsIn returns the code of a Markdown page, its blocks' lines and
// its spans, cut at each command line's end (a comment, a pipe, a ;).
func commandsIn(page string) []string {
	var code []string
	for _, m := range fence.FindAllStringSubmatch(page, -1) {
		code = append(code, strings.Split(m[1], "\n")...)
	}
	for _, m := range span.FindAllStringSubmatch(fence.ReplaceAllString(page, ""), -1) {
		code = append(code, m[1])
	}
	var cmds []string
	for _, c := range code {
		cmds = append(cmds, strings.FieldsFunc(c, func(r rune) bool { return r == '#' || r == '|' || r == ';' })...)
	}
	return cmds
}

// TestCommandsAsDocumented: every flag the README and the manual give a
// lapse command, in a code block or span (lapse void --users …), is one
// its --help lists; every flag a command's usage line names is one it
// has; and lapse void's and lapse extend's usage lines name all three
// ways to say which coupons, --template, --coupons and --users.
func TestCommandsAsDocumented(t *testing.T) {
	_, leaves := commandLines(t)
	type help struct {
		usage string
		flags map[string]bool
	}
	helps := map[string]help{}
	for _, line := range leaves {
		usage, flags := helpOf(t, line)
		name := strings.Join(line, " ")
		helps[name] = help{usage, flags}
		for _, m := range flagWord.FindAllStringSubmatch(usage, -1) {
			if !flags[m[1]] {
				t.Errorf("lapse %s: its usage line names --%s, which it has not: %s", name, m[1], usage)
			}
		}
	}
	for _, name := range []string{"void", "extend"} {
		for _, f := range []string{"--template", "--coupons", "--users"} {
			if !strings.Contains(helps[name].usage, f) {
				t.Errorf("lapse %s: its usage line does not name %s: %s", name, f, helps[name].usage)
			}
		}
	}

	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	command := regexp.MustCompile(`(?:^|[\s/(])lapse ([a-z]+)(?: ([a-z]+))?`)
	checked := 0
	for _, page := range append(pages, "../../README.md") {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range commandsIn(string(raw)) {
			m := command.FindStringSubmatchIndex(c)
			if m == nil {
				continue
			}
			name := c[m[2]:m[3]]
			if m[4] >= 0 {
				if _, ok := helps[name+" "+c[m[4]:m[5]]]; ok {
					name += " " + c[m[4]:m[5]]
				}
			}
			h, ok := helps[name]
			if !ok {
				continue // a group named alone, or a word after lapse in prose
			}
			for _, f := range flagWord.FindAllStringSubmatch(c[m[1]:], -1) {
				checked++
				if f[1] != "help" && !h.flags[f[1]] {
					t.Errorf("%s: %q gives lapse %s --%s, which its --help does not list", filepath.Base(page), strings.TrimSpace(c), name, f[1])
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d flags of the docs' commands, want the many they give", checked)
	}
}
