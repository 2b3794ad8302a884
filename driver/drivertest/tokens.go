package drivertest

import (
	"slices"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// tokenTests test the token rows: insert once by name, read, list by
// name, revoke once.
var tokenTests = []test{
	{"InsertRead", testTokenInsertRead},
	{"Revoke", testTokenRevoke},
}

// wantToken fails unless got is want.
func (f *fixture) wantToken(what string, got, want storetype.Token) {
	f.t.Helper()
	if got.Name != want.Name || got.Hash != want.Hash || !slices.Equal(got.Scopes, want.Scopes) {
		f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
	wantTime(f.t, what+": CreatedAt", got.CreatedAt, want.CreatedAt)
	wantTime(f.t, what+": RevokedAt", got.RevokedAt, want.RevokedAt)
}

// testTokenInsertRead: InsertToken stores a token unless its name is
// taken; Token reads one, Tokens all by name.
func testTokenInsertRead(f *fixture) {
	b := storetype.Token{Name: "b", Hash: "hb", Scopes: []credential.Scope{credential.Wallet, credential.Orders}, CreatedAt: t0}
	a := storetype.Token{Name: "a", Hash: "ha", Scopes: []credential.Scope{credential.Admin}, CreatedAt: t0.Add(time.Hour)}
	for _, tc := range []struct {
		tk       storetype.Token
		inserted bool
	}{{b, true}, {a, true}, {storetype.Token{Name: "b", Hash: "other", CreatedAt: t0}, false}} {
		got := read(f, "InsertToken "+tc.tk.Name, func(tx driver.Executor) (bool, error) { return tx.InsertToken(f.ctx, tc.tk) })
		want(f.t, "InsertToken "+tc.tk.Name, got, tc.inserted)
	}
	f.wantToken("Token", read(f, "Token", func(tx driver.Executor) (storetype.Token, error) { return tx.Token(f.ctx, "b") }), b)
	all, err := f.d.Executor().Tokens(f.ctx)
	ok(f.t, "Tokens", err)
	want(f.t, "Tokens", len(all), 2)
	f.wantToken("Tokens[0]", all[0], a)
	f.wantToken("Tokens[1]", all[1], b)
}

// testTokenRevoke: RevokeToken sets revoked_at to the now passed, once.
func testTokenRevoke(f *fixture) {
	tk := storetype.Token{Name: "a", Hash: "ha", Scopes: []credential.Scope{credential.Admin}, CreatedAt: t0}
	f.tx(func(tx driver.Executor) {
		_, err := tx.InsertToken(f.ctx, tk)
		ok(f.t, "InsertToken", err)
	})
	for _, at := range []time.Time{t0.Add(time.Hour), t0.Add(2 * time.Hour)} {
		f.tx(func(tx driver.Executor) {
			ok(f.t, "RevokeToken", tx.RevokeToken(f.ctx, driver.RevokeTokenParams{Name: "a", Now: at}))
		})
	}
	tk.RevokedAt = t0.Add(time.Hour)
	f.tx(func(tx driver.Executor) {
		got, err := tx.Token(f.ctx, "a")
		ok(f.t, "Token", err)
		f.wantToken("revoked twice", got, tk)
	})
}
