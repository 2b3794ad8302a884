package main

import (
	"errors"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// lapseExit runs `lapse args...` and returns its stdout, its stderr and
// its exit code.
func lapseExit(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("lapse %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// listed returns the commands a help lists under "commands:", one a line
// as "  name  summary".
func listed(help string) []string {
	_, list, ok := strings.Cut(help, "\ncommands:\n")
	if !ok {
		return nil
	}
	var names []string
	for _, line := range strings.Split(list, "\n") {
		if f := strings.Fields(line); strings.HasPrefix(line, "  ") && len(f) > 0 {
			names = append(names, f[0])
		}
	}
	return names
}

// commandLines are the commands lapse --help lists and the commands of
// theirs, each as the arguments that name it; leaves are those of them
// that have no commands of their own, the ones that take flags.
func commandLines(t *testing.T) (lines, leaves [][]string) {
	t.Helper()
	top, _, code := lapseExit(t, "--help")
	commands := listed(top)
	if code != 0 || len(commands) < 10 {
		t.Fatalf("lapse --help: exit %d, commands %v", code, commands)
	}
	for _, c := range commands {
		lines = append(lines, []string{c})
		out, _, _ := lapseExit(t, c, "--help")
		subs := listed(out)
		if c == "tokens" { // its usage line lists its commands
			subs = []string{"create", "list", "revoke"}
		}
		for _, sub := range subs {
			lines = append(lines, []string{c, sub})
			leaves = append(leaves, []string{c, sub})
		}
		if len(subs) == 0 {
			leaves = append(leaves, []string{c})
		}
	}
	return lines, leaves
}

// TestHelp: --help and -h on lapse, on every command lapse help lists and
// on every command of theirs print the help on stdout, nothing on stderr,
// and exit 0; a flag no command has exits 2 with the error on stderr.
func TestHelp(t *testing.T) {
	lines, _ := commandLines(t)
	for _, line := range lines {
		for _, h := range []string{"--help", "-h"} {
			args := append(line, h)
			stdout, stderr, code := lapseExit(t, args...)
			if code != 0 || stderr != "" || !strings.Contains(stdout, "usage") && !strings.Contains(stdout, "  -") {
				t.Errorf("lapse %v: exit %d, stdout %q, stderr %q; want the help on stdout and exit 0", args, code, stdout, stderr)
			}
		}
	}
	for _, args := range [][]string{{"serve", "--nope"}, {"tokens", "list", "--nope"}, {"void", "--nope"}, {"bench", "storm", "--nope"}, {"frobnicate"}} {
		stdout, stderr, code := lapseExit(t, args...)
		if code != 2 || stdout != "" || stderr == "" {
			t.Errorf("lapse %v: exit %d, stdout %q, stderr %q; want exit 2 and the error on stderr", args, code, stdout, stderr)
		}
	}
}

// sharedGroups are the groups a flag every command or several have is
// listed under in --help; lapse serve's store flag is with its instances.
var sharedGroups = map[string][]string{
	"log-format": {"Logs"}, "log-level": {"Logs"},
	"url": {"Connection"}, "token": {"Connection"},
	"store": {"Store", "Store and instances"},
	"out":   {"Output"}, "plot": {"Output"}, "cpuprofile": {"Output"},
}

// TestHelpGrouped: --help on every command that takes flags (each
// command line lapse --help leads to with no commands of its own, version
// aside) prints on stdout, exiting 0, its usage and then every flag once
// under a group's title, none before the first: the flags commands share
// under their group (sharedGroups), every command's log flags among them,
// and a command's own flags first, under its name (lapse serve's under
// the groups of the configuration page, TestServeHelpGrouped).
func TestHelpGrouped(t *testing.T) {
	_, leaves := commandLines(t)
	heading := regexp.MustCompile(`^(\S.*):$`)
	for _, line := range leaves {
		name := strings.Join(line, " ")
		if name == "version" {
			continue
		}
		stdout, stderr, code := lapseExit(t, append(slices.Clone(line), "--help")...)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: lapse "+name) {
			t.Errorf("lapse %s --help: exit %d, stderr %q, stdout %q; want its usage on stdout and exit 0", name, code, stderr, stdout)
			continue
		}
		group, groups, seen := "", []string{}, map[string]string{}
		prev := ""
		for l := range strings.Lines(stdout) {
			l = strings.TrimSuffix(l, "\n")
			if m := heading.FindStringSubmatch(l); m != nil && prev == "" {
				group = m[1]
				if slices.Contains(groups, group) {
					t.Errorf("lapse %s --help: group %q twice", name, group)
				}
				groups = append(groups, group)
			}
			prev = l
			flagName, ok := strings.CutPrefix(l, "  -")
			if !ok {
				continue
			}
			flagName, _, _ = strings.Cut(flagName, " ")
			switch {
			case group == "":
				t.Errorf("lapse %s --help: -%s before any group", name, flagName)
			case seen[flagName] != "":
				t.Errorf("lapse %s --help: -%s twice", name, flagName)
			}
			seen[flagName] = group
			want, shared := sharedGroups[flagName]
			switch {
			case shared && !slices.Contains(want, group):
				t.Errorf("lapse %s --help: -%s under %q, want %v", name, flagName, group, want)
			case !shared && name != "serve" && group != name:
				t.Errorf("lapse %s --help: its own -%s under %q, want %q", name, flagName, group, name)
			}
		}
		if seen["log-format"] == "" || seen["log-level"] == "" {
			t.Errorf("lapse %s --help: no log flags in:\n%s", name, stdout)
		}
		if name != "serve" && slices.Contains(slices.Collect(maps.Values(seen)), name) && groups[0] != name {
			t.Errorf("lapse %s --help: groups %v, want its own flags first", name, groups)
		}
	}
}
