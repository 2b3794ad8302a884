package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/storetype"
)

// TestServeLoaderInterval: --loader-interval, or LAPSE_LOADER_INTERVAL,
// reaches the engine. Two instances share a PostgreSQL store with no delay
// queue and a sweeper an hour apart; coupons issued through the first fall
// due in the shards of both. With a short loader interval the second hears
// of its timers and expires its share; with an hour it does not, while the
// first, told by its own writes, expires its share on time.
func TestServeLoaderInterval(t *testing.T) {
	for _, c := range []struct {
		how, interval string
		all           bool
	}{{"flag", "200ms", true}, {"flag", "1h", false}, {"env", "1h", false}} {
		t.Run(c.how+"-"+c.interval, func(t *testing.T) {
			dbURL := pgtest.SchemaURL(t)
			args := []string{"--store", dbURL, "--sweep-interval", "1h"}
			if c.how == "flag" {
				args = append(args, "--loader-interval", c.interval)
			} else {
				t.Setenv("LAPSE_LOADER_INTERVAL", c.interval)
			}
			a := startServe(t, append(args, "--instance", "a")...)
			b := startServe(t, append(args, "--instance", "b")...)
			waitShared(t, a, b)

			const n = 64
			endsAt := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
			_, body := a.call(t, http.MethodPost, "/v1/templates", `{"name": "n", "value": 1, "validity": {"ends_at": "`+endsAt+`", "duration": "1h"}}`)
			var tpl struct{ ID string }
			if err := json.Unmarshal([]byte(body), &tpl); err != nil || tpl.ID == "" {
				t.Fatalf("create template: %s (%v)", body, err)
			}
			users := make([]string, n)
			for i := range users {
				users[i] = fmt.Sprintf("%q", fmt.Sprintf("u%d", i))
			}
			if status, body := a.call(t, http.MethodPost, "/v1/templates/"+tpl.ID+"/issue", `{"user_ids": [`+strings.Join(users, ",")+`]}`); status != http.StatusOK || !strings.Contains(body, fmt.Sprintf(`"issued":%d`, n)) {
				t.Fatalf("issue: got %d %s, want %d issued", status, body, n)
			}
			db := pgtest.Connect(t, dbURL)
			expired := func() int { // by the rows: the API shows a coupon past its expiry as expired
				var got int
				if err := db.QueryRow(context.Background(), "SELECT count(*) FROM coupons WHERE status = 'expired'").Scan(&got); err != nil {
					t.Fatalf("count expired: %v", err)
				}
				return got
			}
			// Ample for a loader 200ms apart, and for the first instance's
			// share; nothing else repairs the second's within the hour.
			deadline := time.Now().Add(8 * time.Second)
			for expired() < n && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
			}
			got := expired()
			if c.all && got != n {
				t.Fatalf("loader %s: %d of %d expired, want all", c.interval, got, n)
			}
			if !c.all && (got == 0 || got == n) {
				t.Fatalf("loader %s: %d of %d expired, want the first instance's share only", c.interval, got, n)
			}
		})
	}
}

// shardsHeld matches the lapse_shards_held gauge in a /metrics answer.
var shardsHeld = regexp.MustCompile(`(?m)^lapse_shards_held (\d+)$`)

// waitShared waits until the instances hold every shard between them, each
// some.
func waitShared(t *testing.T, instances ...*served) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		total, each := 0, true
		for _, s := range instances {
			_, body := s.call(t, http.MethodGet, "/metrics", "")
			held := 0
			if m := shardsHeld.FindStringSubmatch(body); m != nil {
				held, _ = strconv.Atoi(m[1])
			}
			total += held
			each = each && held > 0
		}
		if total == storetype.Shards && each {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the instances hold %d of %d shards after 30s", total, storetype.Shards)
		}
	}
}
