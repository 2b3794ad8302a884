package main

import (
	"context"
	"database/sql"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// lapseTokens runs `lapse tokens args...` on the store at url and returns
// what it printed on stdout.
func lapseTokens(t *testing.T, url string, args ...string) string {
	t.Helper()
	return run(t, append(append([]string{"tokens"}, args...), "--store", url)...)
}

// run runs `lapse args...`, fails t unless it exits 0, and returns what
// it printed on stdout, trimmed.
func run(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lapse %v: %v\n%s", args, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// status answers GET path on s with the bearer token secret.
func (s *server) status(t *testing.T, path, secret string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := httpc.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestOpenOnlyOnLoopback: on every store, lapse with no token serves open
// on loopback, saying so, and refuses to start on any other address,
// saying why.
func TestOpenOnlyOnLoopback(t *testing.T) { onEach(t, testOpenOnlyOnLoopback) }

func testOpenOnlyOnLoopback(t *testing.T, be backend) {
	url := be.store(t)
	s := start(t, url)
	clienttest.Must(s.api.Events(t.Context(), client.EventQuery{})).On(t)
	if !strings.Contains(s.log.String(), "no API token exists: serving open to this machine only") {
		t.Fatalf("log does not say lapse serves open:\n%s", s.log.String())
	}
	s.stop(t)

	_, port, _ := strings.Cut(outboxtest.FreeAddr(t), ":")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, binary, "serve", "--listen", "0.0.0.0:"+port, "--store", url).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no API token exists and --listen 0.0.0.0:"+port+" is not a loopback address") {
		t.Fatalf("serve on 0.0.0.0 without a token: %v\n%s", err, out)
	}
}

// TestRevocationReachesEveryInstance: two instances share a PostgreSQL or
// MySQL store; a token revoked by `lapse tokens revoke` is refused by
// both within httpapi.DefaultTokenRefresh (plus a read of the tokens,
// and slack for a loaded machine), while another token still works. It
// prints the delays measured.
func TestRevocationReachesEveryInstance(t *testing.T) { onShared(t, testRevocation) }

func testRevocation(t *testing.T, be backend) {
	url := be.store(t)
	feed := lapseTokens(t, url, "create", "--name", "feed", "--scopes", "events")
	other := lapseTokens(t, url, "create", "--name", "other", "--scopes", "events")
	ss := startShared(t, url, 2)
	for _, s := range ss {
		if got := s.status(t, "/v1/events", feed); got != http.StatusOK {
			t.Fatalf("events with the token: %d", got)
		}
	}
	lapseTokens(t, url, "revoke", "--name", "feed")
	revoked := time.Now() // the revocation has committed
	const slack = 1500 * time.Millisecond
	for i, s := range ss {
		for s.status(t, "/v1/events", feed) != http.StatusUnauthorized {
			if time.Since(revoked) > httpapi.DefaultTokenRefresh+slack {
				t.Fatalf("instance %d still honours the revoked token %s after the revocation", i, time.Since(revoked))
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Logf("%s: instance %d refuses the revoked token %s after `lapse tokens revoke` returned (bound %s)",
			be.name, i, time.Since(revoked).Round(time.Millisecond), httpapi.DefaultTokenRefresh)
		if got := s.status(t, "/v1/events", other); got != http.StatusOK {
			t.Fatalf("instance %d: the other token: %d, want 200", i, got)
		}
	}
}

// TestTokensDeletedStayClosed (issue 23): on every store, lapse that
// started with a token stays closed once every token row is deleted
// while it serves: past the token refresh, a request without a token, or
// with the deleted one, is 401, never served open.
func TestTokensDeletedStayClosed(t *testing.T) { onEach(t, testTokensDeletedStayClosed) }

func testTokensDeletedStayClosed(t *testing.T, be backend) {
	url := be.store(t)
	run(t, "migrate", "--store", url) // lapse tokens makes no store (SQLite's file)
	secret := lapseTokens(t, url, "create", "--name", "feed", "--scopes", "events")
	s := start(t, url)
	if got := s.status(t, "/v1/events", secret); got != http.StatusOK {
		t.Fatalf("events with the token: %d", got)
	}
	deleteTokens(t, be, url)
	time.Sleep(httpapi.DefaultTokenRefresh + 500*time.Millisecond) // the server has read the tokens again
	for _, who := range []string{"", secret} {
		if got := s.status(t, "/v1/events", who); got != http.StatusUnauthorized {
			t.Fatalf("events with %q once every token row is deleted: %d, want 401", who, got)
		}
	}
}

// deleteTokens deletes every row of the tokens table of the store at url,
// behind lapse's back.
func deleteTokens(t *testing.T, be backend, url string) {
	t.Helper()
	var err error
	switch be.name {
	case "sqlite":
		var db *sql.DB
		if db, err = sql.Open("sqlite", "file:"+strings.TrimPrefix(url, "sqlite:")+"?_pragma=busy_timeout(10000)"); err == nil {
			defer db.Close()
			_, err = db.Exec("DELETE FROM tokens")
		}
	case "postgres":
		_, err = pgtest.Connect(t, url).Exec(t.Context(), "DELETE FROM tokens")
	case "mysql":
		_, err = mysqltest.Raw(t, url).Exec("DELETE FROM tokens")
	default:
		t.Fatalf("deleteTokens: no store %s", be.name)
	}
	if err != nil {
		t.Fatalf("delete tokens: %v", err)
	}
}
