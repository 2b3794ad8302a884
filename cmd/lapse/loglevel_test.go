package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
)

// TestLogLevel: --log-level warn keeps lapse serve's info lines out of
// its log, which the default, info, has; a level lapse has not exits 2
// saying which it has.
func TestLogLevel(t *testing.T) {
	const serving = "lapse: serving"
	if s := start(t, sqliteBackend.store(t)); !strings.Contains(s.log.String(), serving) {
		t.Errorf("default level: no %q in the log:\n%s", serving, s.log.String())
	}
	if s := start(t, sqliteBackend.store(t), "--log-level", "warn"); strings.Contains(s.log.String(), serving) {
		t.Errorf("--log-level warn: %q in the log:\n%s", serving, s.log.String())
	}
	_, stderr, code := lapseExit(t, "serve", "--log-level", "loud")
	if code != 2 || !strings.Contains(stderr, "want debug, info, warn or error") {
		t.Errorf("--log-level loud: exit %d, stderr %q; want 2 and the levels", code, stderr)
	}
}

// TestCommandsLogFlags: every command but version takes --log-format and
// --log-level as lapse serve does. On each command line lapse --help
// leads to, a level lapse has not exits 2 saying which it has. On a run
// of migrate, tokens, a bench and each operator command, --log-format
// json with a level at or below its record's writes that record as a
// JSON line; a level above it leaves the record out. The operator
// commands' record is each request, at debug, with the X-Request-Id
// lapse answered with.
func TestCommandsLogFlags(t *testing.T) {
	_, leaves := commandLines(t)
	for _, line := range leaves {
		if line[0] == "serve" || line[0] == "version" {
			continue
		}
		args := append(slices.Clone(line), "--log-level", "loud")
		_, stderr, code := lapseExit(t, args...)
		if code != 2 || !strings.Contains(stderr, "want debug, info, warn or error") {
			t.Errorf("lapse %v: exit %d, stderr %q; want 2 and the levels", args, code, stderr)
		}
	}

	db := "sqlite:" + filepath.Join(t.TempDir(), "lapse.db")
	s := start(t, sqliteBackend.store(t))
	tpl := clienttest.Must(s.api.CreateTemplate(t.Context(), client.NewTemplate{Name: "logs", Value: 100,
		Validity: client.Validity{Duration: client.Duration(time.Hour)}})).On(t)
	op := clienttest.Must(s.api.StartOperation(t.Context(), client.NewOperation{Kind: "void", TemplateID: tpl.ID})).On(t)
	url := []string{"--url", s.base}
	for _, c := range []struct {
		args          []string
		msg           string
		level, higher string
	}{
		{[]string{"migrate", "--store", db}, "lapse: migrated", "info", "warn"},
		{[]string{"tokens", "create", "--store", db, "--scopes", "admin"}, "lapse: token created; it is shown once, on stdout", "info", "warn"},
		{[]string{"bench", "orders", "--rate", "20", "--duration", "1s", "--timeout", "100ms"}, "lapse: bench done", "info", "warn"},
		{append([]string{"templates", "list"}, url...), "lapse: request", "debug", "info"},
		{append([]string{"sinks", "list"}, url...), "lapse: request", "debug", "info"},
		{append([]string{"void", "--template", tpl.ID, "--dry-run"}, url...), "lapse: request", "debug", "info"},
		{append([]string{"extend", "--template", tpl.ID, "--by", "1h", "--dry-run"}, url...), "lapse: request", "debug", "info"},
		{append([]string{"operations", "show", op.ID}, url...), "lapse: request", "debug", "info"},
		{append([]string{"archive", "--dry-run"}, url...), "lapse: request", "debug", "info"},
		{append([]string{"reconcile"}, url...), "lapse: request", "debug", "info"},
	} {
		run := func(flags ...string) (string, int) {
			args := append(slices.Clone(c.args), flags...)
			if c.args[0] == "tokens" { // each run a token of its own
				args = append(args, "--name", "ops-"+flags[len(flags)-1])
			}
			_, stderr, code := lapseExit(t, args...)
			return stderr, code
		}
		stderr, code := run("--log-format", "json", "--log-level", c.level)
		if code != 0 {
			t.Fatalf("lapse %v: exit %d:\n%s", c.args, code, stderr)
		}
		var found bool
		for l := range strings.Lines(stderr) {
			var rec map[string]any
			if json.Unmarshal([]byte(l), &rec) != nil || rec["msg"] != c.msg {
				continue
			}
			found = true
			if c.level == "debug" && (rec["request_id"] == "" || rec["request_id"] == nil || rec["status"] != 200.0) {
				t.Errorf("lapse %v: request record %s: want a status 200 and a request_id", c.args, l)
			}
		}
		if !found {
			t.Errorf("lapse %v --log-format json --log-level %s: no JSON record %q in:\n%s", c.args, c.level, c.msg, stderr)
		}
		stderr, code = run("--log-level", c.higher)
		if code != 0 || strings.Contains(stderr, c.msg) {
			t.Errorf("lapse %v --log-level %s: exit %d, stderr %q; want 0 and no %q", c.args, c.higher, code, stderr, c.msg)
		}
	}
}
