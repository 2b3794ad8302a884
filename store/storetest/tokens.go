package storetest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var tokenTests = []test{
	{"CreateListRevoke", testTokens},
	{"RefusalsStoreNothing", testTokenRefusals},
	{"ActorInEvents", testActor},
}

// tokens lists every token.
func (f *fixture) tokens() []storetype.Token {
	f.t.Helper()
	tks, err := f.s.Tokens(f.ctx)
	if err != nil {
		f.t.Fatalf("Tokens: %v", err)
	}
	return tks
}

// wantToken fails unless got is want.
func (f *fixture) wantToken(what string, got, want storetype.Token) {
	f.t.Helper()
	if got.Name != want.Name || got.Hash != want.Hash || !slices.Equal(got.Scopes, want.Scopes) {
		f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
	f.wantTime(what+": created_at", got.CreatedAt, want.CreatedAt)
	f.wantTime(what+": revoked_at", got.RevokedAt, want.RevokedAt)
}

// testTokens: a token is stored as its hash with its scopes, listed by
// name, and revoked once: a second revocation keeps the first's time.
func testTokens(t *testing.T, open opener) {
	f := newFixture(t, open)
	if tks := f.tokens(); len(tks) != 0 {
		f.t.Fatalf("Tokens of a new store: %+v", tks)
	}
	scopes := []credential.Scope{credential.Wallet, credential.Orders}
	tk, secret, err := f.s.CreateToken(f.ctx, store.CreateTokenParams{Name: "checkout", Scopes: scopes, Now: t0})
	if err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	if !strings.HasPrefix(secret, credential.Prefix) || tk.Hash != credential.Hash(secret) {
		t.Fatalf("CreateToken: secret %q, hash %q", secret, tk.Hash)
	}
	want := storetype.Token{Name: "checkout", Hash: credential.Hash(secret), Scopes: scopes, CreatedAt: t0}
	f.wantToken("created", tk, want)
	ops, _, err := f.s.CreateToken(f.ctx, store.CreateTokenParams{Name: "ops", Scopes: credential.Scopes, Now: t0.Add(time.Second)})
	if err != nil {
		t.Fatalf("CreateToken(ops): %v", err)
	}
	tks := f.tokens()
	if len(tks) != 2 {
		t.Fatalf("Tokens: %+v", tks)
	}
	f.wantToken("listed", tks[0], want)
	f.wantToken("listed ops", tks[1], ops)
	for _, tk := range tks {
		if strings.Contains(tk.Hash, secret) {
			t.Fatalf("token %s stores its secret", tk.Name)
		}
	}

	revoked, err := f.s.RevokeToken(f.ctx, store.RevokeTokenParams{Name: "checkout", Now: t0.Add(time.Minute)})
	if err != nil {
		t.Fatalf("RevokeToken: %v", err)
	}
	want.RevokedAt = t0.Add(time.Minute)
	f.wantToken("revoked", revoked, want)
	again, err := f.s.RevokeToken(f.ctx, store.RevokeTokenParams{Name: "checkout", Now: t0.Add(time.Hour)})
	if err != nil {
		t.Fatalf("RevokeToken again: %v", err)
	}
	f.wantToken("revoked again", again, want)
	f.wantToken("listed revoked", f.tokens()[0], want)
	f.wantToken("ops untouched", f.tokens()[1], ops)
	_, err = f.s.RevokeToken(f.ctx, store.RevokeTokenParams{Name: "nobody", Now: t0})
	f.wantErr("revoke unknown", err, storetype.ErrNotFound)
}

// testTokenRefusals: a taken name (live or revoked), a bad name or no
// scope is refused and stores nothing.
func testTokenRefusals(t *testing.T, open opener) {
	f := newFixture(t, open)
	first, _, err := f.s.CreateToken(f.ctx, store.CreateTokenParams{Name: "checkout", Scopes: []credential.Scope{credential.Wallet}, Now: t0})
	if err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	_, _, err = f.s.CreateToken(f.ctx, store.CreateTokenParams{Name: "checkout", Scopes: []credential.Scope{credential.Admin}, Now: t0})
	f.wantErr("same name", err, store.ErrTokenExists)
	if _, err := f.s.RevokeToken(f.ctx, store.RevokeTokenParams{Name: "checkout", Now: t0}); err != nil {
		t.Fatalf("RevokeToken: %v", err)
	}
	_, _, err = f.s.CreateToken(f.ctx, store.CreateTokenParams{Name: "checkout", Scopes: []credential.Scope{credential.Admin}, Now: t0})
	f.wantErr("name of a revoked token", err, store.ErrTokenExists)
	for _, p := range []store.CreateTokenParams{
		{Name: "", Scopes: credential.Scopes, Now: t0},
		{Name: "two words", Scopes: credential.Scopes, Now: t0},
		{Name: "noscope", Now: t0},
	} {
		if _, _, err := f.s.CreateToken(f.ctx, p); err == nil {
			t.Fatalf("CreateToken(%+v) accepted", p)
		}
	}
	first.RevokedAt = t0
	if tks := f.tokens(); len(tks) != 1 {
		t.Fatalf("Tokens after refusals: %+v", tks)
	}
	f.wantToken("kept", f.tokens()[0], first)
}

// testActor: every event a call under an actor causes records it as
// "actor" in its data — a claim's and a bulk issuance's coupon.claimed, a
// transition's, an order's and the coupon.locked it causes — while the
// same calls without one, and the engine's drains, record none.
func testActor(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	plain := f.ctx
	f.ctx = store.WithActor(plain, "checkout")
	start := f.cursor()
	c := f.claim(f.tpl.ID, buyer, t0)
	f.issue(store.IssueParams{TemplateID: f.tpl.ID, Users: store.UserList([]string{"u2", "u3"}), Now: t0})
	f.do(c.ID, lock("o-1", t0, time.Minute))
	f.do(c.ID, act(coupon.Unlock, "o-1", t0))
	o := f.create(c.ID)
	acted := f.eventsAfter(start)
	f.ctx = plain
	mid := f.cursor()
	f.claim(f.tpl.ID, "u4", t0)
	f.expireDue(t0.Add(48*time.Hour), 100)
	unacted := f.eventsAfter(mid)

	var types []string
	for _, e := range acted {
		types = append(types, e.Type)
		if got := actorOf(t, e); got != "checkout" {
			t.Fatalf("%s of %s under actor checkout: actor %q (data %s)", e.Type, e.Subject, got, e.Data)
		}
	}
	want := []string{store.EventCouponClaimed, store.EventCouponClaimed, store.EventCouponClaimed,
		store.EventCouponLocked, store.EventCouponUnlocked, store.EventCouponLocked, store.EventOrderCreated}
	if !slices.Equal(types, want) {
		t.Fatalf("events under actor (order %s): %v, want %v", o.ID, types, want)
	}
	if len(unacted) < 2 {
		t.Fatalf("events without actor: %s", fmtEvents(unacted))
	}
	for _, e := range unacted {
		if got := actorOf(t, e); got != "" {
			t.Fatalf("%s of %s without actor: actor %q", e.Type, e.Subject, got)
		}
	}
	// The data is otherwise as without an actor.
	if d := f.data(acted[0]); d.UserID != buyer || d.TemplateID != f.tpl.ID || d.Reason != store.ReasonClaim {
		t.Fatalf("claimed data under actor: %+v", d)
	}
}

// actorOf reads an event's data.actor.
func actorOf(t *testing.T, e storetype.Event) string {
	t.Helper()
	var d struct {
		Actor *string `json:"actor"`
	}
	if err := json.Unmarshal(e.Data, &d); err != nil {
		t.Fatalf("%s data %s: %v", e.Type, e.Data, err)
	}
	if d.Actor == nil {
		return ""
	}
	if *d.Actor == "" {
		t.Fatalf("%s data %s: empty actor", e.Type, e.Data)
	}
	return *d.Actor
}
