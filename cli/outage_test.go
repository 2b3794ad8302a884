package cli

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store/outagetest"
)

// TestServeThroughOutage serves on PostgreSQL and on MariaDB through a
// forwarder, then cuts the database off for 3 s (SQLite, a file in the
// process, has no network to lose: see outagetest): every answer during
// the cut is 503 unavailable with a Retry-After, never a 500, /readyz
// says the database is unavailable, and the log tells of the outage once
// when it starts and once when it ends, with no error per tick. Once the
// forwarder is back, the same process serves again without a restart: the
// claim retried under its Idempotency-Key succeeds once, and a coupon
// that fell due during the cut expires.
func TestServeThroughOutage(t *testing.T) {
	for _, b := range outagetest.Networked(t) {
		t.Run(b.Name, func(t *testing.T) {
			s := startServe(t, "--store", b.URL, "--loader-interval", "100ms", "--sweep-interval", "1s")
			_, body := s.call(t, http.MethodPost, "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "3s"}}`)
			var tpl struct{ ID string }
			if err := json.Unmarshal([]byte(body), &tpl); err != nil || tpl.ID == "" {
				t.Fatalf("create template: %s", body)
			}
			claim := "/v1/users/u1/coupons"
			claimBody := `{"template_id": "` + tpl.ID + `"}`
			status, body := s.call(t, http.MethodPost, claim, claimBody)
			var due struct{ ID string }
			if err := json.Unmarshal([]byte(body), &due); status != http.StatusCreated || err != nil {
				t.Fatalf("claim before the cut: %d %s", status, body)
			}

			b.Forwarder.Cut()
			cut := time.Now()
			for _, req := range []struct{ method, path, body string }{
				{http.MethodGet, "/v1/coupons/" + due.ID, ""},
				{http.MethodGet, "/v1/users/u1/coupons", ""},
				{http.MethodPost, "/v1/users/u2/coupons", claimBody},
			} {
				res := s.send(t, req.method, req.path, req.body, "Idempotency-Key", "claim-u2")
				if res.status != http.StatusServiceUnavailable || !strings.Contains(res.body, `"/problems/unavailable"`) || res.header.Get("Retry-After") != "1" {
					t.Fatalf("%s %s during the cut: got %d, Retry-After %q, %s; want 503 unavailable, Retry-After 1",
						req.method, req.path, res.status, res.header.Get("Retry-After"), res.body)
				}
			}
			if res := s.send(t, http.MethodGet, "/readyz", ""); res.status != http.StatusServiceUnavailable || !strings.Contains(res.body, "database unavailable: ") {
				t.Fatalf("/readyz during the cut: got %d %s, want 503 database unavailable: <reason>", res.status, res.body)
			}
			time.Sleep(time.Until(cut.Add(3 * time.Second)))
			b.Forwarder.Restore()

			res := s.send(t, http.MethodPost, "/v1/users/u2/coupons", claimBody, "Idempotency-Key", "claim-u2")
			if res.status != http.StatusCreated {
				t.Fatalf("claim retried after the cut: got %d %s, want 201", res.status, res.body)
			}
			if status, body := s.call(t, http.MethodGet, "/v1/users/u2/coupons", ""); status != http.StatusOK || strings.Count(body, `"id"`) != 1 {
				t.Fatalf("u2's wallet: got %d %s, want the one coupon claimed", status, body)
			}
			waitFor(t, 15*time.Second, "the coupon due during the cut to expire", func() bool {
				_, body := s.call(t, http.MethodGet, "/v1/events?limit=100", "")
				return strings.Contains(body, `"coupon.expired"`)
			})
			waitFor(t, 5*time.Second, "the log to tell of the outage's end", func() bool {
				return strings.Contains(s.out.String(), "store: database available again")
			})

			lines := map[string]int{}
			for _, l := range strings.Split(strings.TrimSpace(s.out.String()), "\n") {
				var rec struct{ Level, Msg string }
				if err := json.Unmarshal([]byte(l), &rec); err != nil {
					t.Fatalf("log line %q: %v", l, err)
				}
				if rec.Level == "ERROR" || strings.HasPrefix(rec.Msg, "store:") {
					lines[rec.Msg]++
					t.Logf("log: %s", l)
				}
			}
			want := map[string]int{"store: database unavailable; the loops retry until it answers": 1, "store: database available again": 1}
			if len(lines) != len(want) || lines["store: database unavailable; the loops retry until it answers"] != 1 || lines["store: database available again"] != 1 {
				t.Fatalf("errors and outage lines logged: got %v, want %v", lines, want)
			}
			_, metrics := s.call(t, http.MethodGet, "/metrics", "")
			for _, m := range []string{"lapse_store_outages_total 1\n", "lapse_store_unavailable 0\n"} {
				if !strings.Contains(metrics, m) {
					t.Fatalf("/metrics: want %q", m)
				}
			}
		})
	}
}

// waitFor polls cond until it holds, failing t after within.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", within, what)
		}
	}
}
