package cli

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// tokens runs `lapse tokens args...` and returns its stdout, stderr and
// error.
func tokens(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := Run(context.Background(), append([]string{"tokens"}, args...), &out, &errOut)
	return out.String(), errOut.String(), err
}

// mustToken creates a token in the store url ("": LAPSE_STORE's) and
// returns it.
func mustToken(t *testing.T, url, name, scopes string) string {
	t.Helper()
	args := []string{"create", "--name", name, "--scopes", scopes}
	if url != "" {
		args = append(args, "--store", url)
	}
	out, errOut, err := tokens(t, args...)
	if err != nil {
		t.Fatalf("tokens create %s: %v\n%s", name, err, errOut)
	}
	return strings.TrimSpace(out)
}

// migrated returns the URL of a new SQLite store, made by lapse migrate.
func migrated(t *testing.T) string {
	t.Helper()
	url := "sqlite:" + t.TempDir() + "/lapse.db"
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"migrate", "--store", url}, &out, &out); err != nil {
		t.Fatalf("migrate %s: %v\n%s", url, err, out.String())
	}
	return url
}

// TestTokensCommands: create prints the token once, list shows names,
// scopes and revocations but no secret, revoke revokes; refusals say why.
func TestTokensCommands(t *testing.T) {
	url := migrated(t)
	secret := mustToken(t, url, "checkout", "wallet,orders")
	if !strings.HasPrefix(secret, credential.Prefix) || strings.ContainsAny(secret, " \n") {
		t.Fatalf("create printed %q, want the token alone", secret)
	}
	t.Setenv("LAPSE_STORE", url)
	mustToken(t, "", "ops", "admin")

	list, _, err := tokens(t, "list")
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if !strings.Contains(list, "checkout  wallet,orders") || !strings.Contains(list, "ops       admin") ||
		strings.Contains(list, secret) || strings.Contains(list, credential.Hash(secret)) {
		t.Fatalf("list:\n%s", list)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"create", "--name", "x", "--scopes", "wallet,root"}, `unknown scope "root"`},
		{[]string{"create", "--name", "x", "--scopes", ""}, "unknown scope"},
		{[]string{"create", "--scopes", "wallet"}, "--name is required"},
		{[]string{"create", "--name", "checkout", "--scopes", "admin"}, "a token of that name exists"},
		{[]string{"create", "--name", "bad name", "--scopes", "admin"}, "token name"},
		{[]string{"revoke", "--name", "nobody"}, `no token named "nobody"`},
		{[]string{"rotate"}, "unknown tokens command"},
	} {
		if _, _, err := tokens(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("tokens %v: got %v, want an error about %q", c.args, err, c.want)
		}
	}
	if _, _, err := tokens(t); !errors.Is(err, ErrUsage) {
		t.Fatalf("tokens alone: got %v, want ErrUsage", err)
	}

	out, _, err := tokens(t, "revoke", "--name", "checkout")
	if err != nil || !strings.HasPrefix(out, "revoked checkout at ") {
		t.Fatalf("revoke: %q, %v", out, err)
	}
	list, _, _ = tokens(t, "list")
	if line := strings.Split(list, "\n")[1]; !strings.HasPrefix(line, "checkout") || strings.HasSuffix(line, " -") {
		t.Fatalf("list after revoke:\n%s", list)
	}
}

// TestTokensNeedAStore: lapse tokens opens only a SQLite store that
// exists, named by --store, LAPSE_STORE or the default ./lapse.db, and
// refuses, creating nothing, one that does not; migrate creates one.
func TestTokensNeedAStore(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	missing := dir + "/missing.db"
	for _, c := range []struct {
		args []string
		env  string
		path string
	}{
		{[]string{"create", "--name", "ops", "--scopes", "admin"}, "", "lapse.db"},
		{[]string{"list"}, "", "lapse.db"},
		{[]string{"create", "--name", "ops", "--scopes", "admin", "--store", "sqlite:" + missing}, "", missing},
		{[]string{"revoke", "--name", "ops"}, "sqlite:" + missing, missing},
	} {
		t.Setenv("LAPSE_STORE", c.env)
		if c.env == "" {
			os.Unsetenv("LAPSE_STORE")
		}
		_, _, err := tokens(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), "no SQLite store at "+c.path) {
			t.Fatalf("tokens %v (LAPSE_STORE %q): got %v, want an error naming %s", c.args, c.env, err, c.path)
		}
		if _, err := os.Stat(c.path); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("tokens %v made %s (%v)", c.args, c.path, err)
		}
	}
	var out bytes.Buffer
	if err := Run(context.Background(), []string{"migrate"}, &out, &out); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out.String())
	}
	mustToken(t, "", "ops", "admin")
}

// TestServeOpenOnLoopback: with no token, serve on loopback serves open
// and says so; once a token exists it needs one.
func TestServeOpenOnLoopback(t *testing.T) {
	s := startServe(t)
	if status, body := s.call(t, http.MethodGet, "/v1/events", ""); status != http.StatusOK {
		t.Fatalf("open events: %d %s", status, body)
	}
	if !strings.Contains(s.out.String(), "no API token exists: serving open to this machine only") {
		t.Fatalf("log does not say it serves open:\n%s", s.out)
	}
}

// TestServeRefusesOpenNonLoopback: with no token, serve on an address
// other than loopback refuses to start, saying why and what to do;
// --insecure serves open there; with a token it starts, and needs it.
func TestServeRefusesOpenNonLoopback(t *testing.T) {
	_, port, _ := net.SplitHostPort(outboxtest.FreeAddr(t))
	url := "sqlite:" + t.TempDir() + "/lapse.db"
	for _, listen := range []string{"0.0.0.0:" + port, ":" + port} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var out bytes.Buffer
		err := Run(ctx, []string{"serve", "--listen", listen, "--store", url}, &out, &out)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "no API token exists and --listen "+listen+" is not a loopback address") ||
			!strings.Contains(err.Error(), "--insecure") || !strings.Contains(err.Error(), "lapse tokens create") {
			t.Fatalf("serve --listen %s without a token: got %v", listen, err)
		}
	}

	s := startServe(t, "--listen", "0.0.0.0:"+port, "--store", url, "--insecure")
	if status, body := s.call(t, http.MethodGet, "/v1/events", ""); status != http.StatusOK {
		t.Fatalf("--insecure: events %d %s", status, body)
	}
	if !strings.Contains(s.out.String(), "(--insecure)") {
		t.Fatalf("log does not warn of --insecure:\n%s", s.out)
	}
	s.cancel()
	<-s.done
	s.done <- nil // for the cleanup

	secret := mustToken(t, url, "feed", "events")
	s = startServe(t, "--listen", "0.0.0.0:"+port, "--store", url)
	if status, _ := s.call(t, http.MethodGet, "/v1/events", ""); status != http.StatusUnauthorized {
		t.Fatalf("events without a token: %d, want 401", status)
	}
	if status, body := s.call(t, http.MethodGet, "/v1/events", "", "Authorization", "Bearer "+secret); status != http.StatusOK {
		t.Fatalf("events with the token: %d %s", status, body)
	}
}

// TestServeNeverShowsTokens: a served instance's log, feed, sinks and
// error answers never show a token, used rightly or wrongly.
func TestServeNeverShowsTokens(t *testing.T) {
	url := migrated(t)
	all := mustToken(t, url, "ops", "wallet,orders,admin,events,metrics")
	wallet := mustToken(t, url, "shop", "wallet")
	unknown := credential.New()
	s := startServe(t, "--store", url, "--sink", "webhook+http://"+outboxtest.FreeAddr(t)+"/hook#name=hook")
	as := func(secret string) []string { return []string{"Authorization", "Bearer " + secret} }
	var answers []string
	call := func(method, path, body string, header ...string) string {
		_, got := s.call(t, method, path, body, header...)
		answers = append(answers, got)
		return got
	}
	tpl := call(http.MethodPost, "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1h"}}`, as(all)...)
	id := tpl[strings.Index(tpl, `"id":"`)+6:]
	id = id[:strings.Index(id, `"`)]
	call(http.MethodPost, "/v1/users/u1/coupons", `{"template_id": "`+id+`"}`, append(as(wallet), "Idempotency-Key", "k")...)
	call(http.MethodPost, "/v1/users/u1/coupons", `{"template_id": "nope"}`, append(as(wallet), "Idempotency-Key", "k")...)
	call(http.MethodPost, "/v1/templates", `{}`, as(wallet)...)
	call(http.MethodGet, "/v1/events", "", as(unknown)...)
	call(http.MethodGet, "/v1/events", "", "Authorization", wallet)
	call(http.MethodGet, "/metrics", "", as(all)...)
	feed := call(http.MethodGet, "/v1/events", "", as(all)...)
	if !strings.Contains(feed, `"actor":"shop"`) {
		t.Fatalf("feed: want the claim by shop: %s", feed)
	}
	call(http.MethodGet, "/v1/sinks", "", as(all)...)
	for _, secret := range []string{all, wallet, unknown} {
		for _, got := range append(answers, s.out.String()) {
			if strings.Contains(got, secret) {
				t.Fatalf("a token shows in %s", got)
			}
		}
	}
}
