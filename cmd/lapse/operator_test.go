package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// TestMigrate: on every store, lapse migrate applies every migration to
// an empty store and says which and the schema version before and after,
// applies none the second time, and lapse serve then starts on the store.
// Once the store records a migration this lapse does not have, lapse
// migrate and lapse serve both refuse it, saying why, with a non-zero
// exit.
func TestMigrate(t *testing.T) { onEach(t, testMigrate) }

func testMigrate(t *testing.T, be backend) {
	db := be.store(t)
	first := strings.Split(run(t, "migrate", "--store", db), "\n")
	applied, last := first[:len(first)-1], first[len(first)-1]
	n := len(applied)
	if n < 2 || applied[0] != "applied 0001_init.sql" || !strings.HasPrefix(applied[1], "applied 0002_") ||
		!strings.HasPrefix(last, be.name+" store ") || !strings.HasSuffix(last, fmt.Sprintf(": schema version 0 -> %d, %d migration(s) applied, up to date", n, n)) {
		t.Fatalf("first lapse migrate: got\n%s", strings.Join(first, "\n"))
	}
	if again := run(t, "migrate", "--store", db); !strings.HasSuffix(again, fmt.Sprintf(": schema version %d -> %d, 0 migration(s) applied, up to date", n, n)) || strings.Contains(again, "\n") {
		t.Fatalf("second lapse migrate: got %q, want nothing applied", again)
	}
	// Ready means serving; the log line the process wrote before it may
	// still be on its way through the stderr pipe.
	s := start(t, db)
	waitUntil(t, "lapse serve on the migrated store to log it serves", func() bool { return strings.Contains(s.log.String(), "lapse: serving") })
	s.stop(t)

	if _, err := be.raw(t, db).Exec(fmt.Sprintf("INSERT INTO schema_migrations (version) VALUES (%d)", n+1)); err != nil {
		t.Fatalf("record a newer lapse's migration: %v", err)
	}
	want := fmt.Sprintf("the database schema is newer than this lapse: it records migration %d, and this lapse knows them up to %d", n+1, n)
	for _, args := range [][]string{{"migrate", "--store", db}, {"serve", "--listen", outboxtest.FreeAddr(t), "--store", db}} {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		out, err := exec.CommandContext(ctx, binary, args...).CombinedOutput()
		cancel()
		if err == nil || !strings.Contains(string(out), want) {
			t.Fatalf("lapse %s on a newer schema: got %v\n%s\nwant a non-zero exit saying %q", args[0], err, out, want)
		}
	}
}

// TestOperatorCommands: on every store, lapse templates list prints the
// templates of a running lapse as a table and as JSON lines, lapse sinks
// list its sinks, and lapse sinks replay --wait redelivers a webhook's
// dead letters, each once, and returns when none is queued.
func TestOperatorCommands(t *testing.T) { onEach(t, testOperatorCommands) }

func testOperatorCommands(t *testing.T, be backend) {
	rc := outboxtest.NewReceiver(t, "")
	rc.SetAnswer(func(int, []outboxtest.Event) (int, time.Duration) { return http.StatusServiceUnavailable, 0 })
	s := start(t, be.store(t), "--sink", "webhook+"+rc.URL, "--sink-max-attempts", "1")
	ctx := t.Context()
	// The list is by ID in byte order, which is creation order only
	// between milliseconds: templates made in the same one may list in
	// either order.
	names := map[string]string{}
	for _, name := range []string{"spring", "summer", "autumn"} {
		tpl := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: name, Value: 100,
			Validity: client.Validity{Duration: client.Duration(time.Hour)}})).On(t)
		names[tpl.ID] = name
	}
	ids := slices.Sorted(maps.Keys(names))
	const users = 3
	for i := range users {
		clienttest.Must(s.api.Claim(ctx, fmt.Sprint("u", i), client.ClaimParams{TemplateID: ids[0]})).On(t)
	}

	table := run(t, "templates", "list", "--url", s.base, "--limit", "2")
	lines := strings.Split(table, "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("lapse templates list: got\n%s", table)
	}
	for i, id := range ids {
		if f := strings.Fields(lines[i+1]); f[0] != id || f[1] != names[id] || f[2] != "100" || f[3] != "unlimited" {
			t.Fatalf("lapse templates list, row %d: got %q, want %s %s 100 unlimited", i+1, lines[i+1], id, names[id])
		}
	}
	var listed []string
	for _, line := range strings.Split(run(t, "templates", "list", "--json", "--url", s.base, "--after", ids[0]), "\n") {
		var tpl client.Template
		if err := json.Unmarshal([]byte(line), &tpl); err != nil {
			t.Fatalf("lapse templates list --json: line %q: %v", line, err)
		}
		listed = append(listed, tpl.ID)
	}
	if !slices.Equal(listed, ids[1:]) {
		t.Fatalf("lapse templates list --json --after the first: got %v, want %v", listed, ids[1:])
	}

	waitUntil(t, "the webhook's dead letters", func() bool {
		sinks := clienttest.Must(s.api.Sinks(ctx)).On(t)
		return len(sinks) == 1 && sinks[0].DeadLetters == users
	})
	table = run(t, "sinks", "list", "--url", s.base)
	if f := strings.Fields(strings.Split(table, "\n")[1]); f[0] != "webhook" || f[1] != "webhook" || f[5] != fmt.Sprint(users) {
		t.Fatalf("lapse sinks list: got\n%s\nwant the webhook with %d dead letters", table, users)
	}
	rc.SetAnswer(nil)
	out := run(t, "sinks", "replay", "webhook", "--url", s.base, "--wait", "--poll", "20ms")
	if out != fmt.Sprintf("sink webhook: %d dead letters queued for redelivery", users) {
		t.Fatalf("lapse sinks replay: got %q", out)
	}
	if sinks := clienttest.Must(s.api.Sinks(ctx)).On(t); sinks[0].Queued != 0 {
		t.Fatalf("after lapse sinks replay --wait: got %+v, want none queued", sinks[0])
	}
	if got := outboxtest.Distinct(rc.Events()); got != users {
		t.Fatalf("webhook after the replay: got %d events, want the %d claims", got, users)
	}
}
