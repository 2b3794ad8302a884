package storetest

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/storetype"
)

var walletTests = []test{
	{"LazyCheckAndFilter", testWalletFilter},
	{"UnknownUser", testWalletUnknownUser},
	{"Pages", testWalletPages},
	{"PagesWithArchived", testWalletPagesArchived},
	{"PageBounds", testWalletPageBounds},
}

// testWalletFilter: a user's wallet lists only their coupons, as the lazy
// check reads them, and filters on the state read.
func testWalletFilter(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate() // coupons live 1h
	other := f.template(nil)   // coupons live 24h
	now := t0.Add(2 * time.Hour)
	// fresh: unused until t0+24h. stale: unused, past its t0+1h, so it
	// reads expired. held: locked. spent: used.
	fresh := f.claim(other.ID, "u1", t0)
	stale := f.claim(tp.ID, "u1", t0)
	held := f.do(f.claim(other.ID, "u1", t0).ID, lock("o1", t0.Add(time.Hour), time.Hour))
	spent := f.do(f.claim(tp.ID, "u1", t0).ID, act(coupon.Redeem, "o2", t0.Add(time.Minute)))
	f.claim(tp.ID, "u2", t0)
	f.claim(other.ID, "u2", t0)

	all := f.userCoupons("u1", 0, now)
	f.wantIDs("all of u1's", all, fresh.ID, stale.ID, held.ID, spent.ID)
	for _, c := range all {
		if c.UserID != "u1" {
			t.Fatalf("u1's wallet holds %s", fmtCoupon(c))
		}
		if c.ID == stale.ID && c.Status != coupon.Expired {
			t.Fatalf("unused coupon past expires_at: listed %s, want expired", c.Status)
		}
		if c.ID == held.ID && c.Status != coupon.Locked {
			t.Fatalf("locked coupon: listed %s, want locked", c.Status)
		}
	}
	cases := []struct {
		status coupon.State
		want   []string
	}{
		{coupon.Unused, []string{fresh.ID}},
		{coupon.Expired, []string{stale.ID}},
		{coupon.Locked, []string{held.ID}},
		{coupon.Used, []string{spent.ID}},
		{coupon.Voided, nil},
	}
	for _, c := range cases {
		f.wantIDs("u1's "+c.status.String(), f.userCoupons("u1", c.status, now), c.want...)
	}
	// Before stale's expires_at it is still unused.
	f.wantIDs("u1's unused 1ms before expiry", f.userCoupons("u1", coupon.Unused, stale.ExpiresAt.Add(-time.Millisecond)), fresh.ID, stale.ID)
	// Coupon returns the stored state; the lazy check is the caller's.
	if got := f.coupon(stale.ID); got.Status != coupon.Unused || got.View(now).Status != coupon.Expired {
		t.Fatalf("Coupon(stale): got %s (viewed %s), want stored unused, viewed expired", got.Status, got.View(now).Status)
	}
}

func testWalletUnknownUser(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	f.claim(tp.ID, "u1", t0)
	f.wantHolds("unknown user", "nobody", t0, 0)
	if cs := f.userCoupons("nobody", coupon.Unused, t0); len(cs) != 0 {
		t.Fatalf("unknown user, unused: got %d coupons, want none", len(cs))
	}
}

// ids returns the IDs of cs, in their order.
func ids(cs []coupon.Coupon) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// page reads one page of a wallet that must be read.
func (f *fixture) page(p storetype.UserCouponsParams) []string {
	f.t.Helper()
	cs, err := f.s.UserCoupons(f.ctx, p)
	if err != nil {
		f.t.Fatalf("UserCoupons(%+v): %v", p, err)
	}
	return ids(cs)
}

// testWalletPages: a wallet is read in pages by coupon ID, each of at most
// its limit, and a status filter applies the lazy check in the query: a
// page of unused coupons is full when enough are, whatever precedes them.
func testWalletPages(t *testing.T, open opener) {
	f := newFixture(t, open)
	hour := f.durationTemplate() // coupons live 1h
	day := f.template(nil)       // coupons live 24h
	now := t0.Add(2 * time.Hour)
	// Claimed a millisecond apart, so that IDs follow claims: five stale
	// (unused, read expired at now), then three fresh, then one used.
	var stale, fresh []string
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }
	for i := range 5 {
		stale = append(stale, f.claim(hour.ID, "u1", at(i)).ID)
	}
	for i := range 3 {
		fresh = append(fresh, f.claim(day.ID, "u1", at(5+i)).ID)
	}
	used := f.do(f.claim(day.ID, "u1", at(8)).ID, act(coupon.Redeem, "o1", at(9))).ID
	f.claim(day.ID, "u2", at(10))
	all := slices.Concat(stale, fresh, []string{used})
	if !slices.IsSorted(all) {
		t.Fatalf("IDs claimed in order do not sort in order: %v", all)
	}

	if got := ids(f.userCoupons("u1", 0, now)); !slices.Equal(got, all) {
		t.Fatalf("u1's wallet in pages of %d: got %v, want %v, by ID", walletPage, got, all)
	}
	p := storetype.UserCouponsParams{UserID: "u1", Status: coupon.Unused, Now: now, Limit: 2}
	if got := f.page(p); !slices.Equal(got, fresh[:2]) {
		t.Fatalf("first page of 2 unused behind 5 expired: got %v, want %v", got, fresh[:2])
	}
	p.After = fresh[1]
	if got := f.page(p); !slices.Equal(got, fresh[2:]) {
		t.Fatalf("next page of unused: got %v, want %v", got, fresh[2:])
	}
	p.After = fresh[2]
	if got := f.page(p); len(got) != 0 {
		t.Fatalf("page after the last unused: got %v, want none", got)
	}
	p = storetype.UserCouponsParams{UserID: "u1", Status: coupon.Expired, Now: now, Limit: 3}
	if got := f.page(p); !slices.Equal(got, stale[:3]) {
		t.Fatalf("first page of expired (stored unused, past expires_at): got %v, want %v", got, stale[:3])
	}
	// At the last millisecond before the stale ones expire, they are
	// unused, and none is expired.
	p = storetype.UserCouponsParams{UserID: "u1", Status: coupon.Unused, Now: t0.Add(time.Hour - time.Millisecond), Limit: 6}
	if got := f.page(p); !slices.Equal(got, all[:6]) {
		t.Fatalf("unused before expiry: got %v, want %v", got, all[:6])
	}
	p.Status = coupon.Expired
	if got := f.page(p); len(got) != 0 {
		t.Fatalf("expired before expiry: got %v, want none", got)
	}
	// Exactly at expires_at, a stale coupon reads expired.
	p = storetype.UserCouponsParams{UserID: "u1", Status: coupon.Expired, Now: t0.Add(time.Hour), Limit: 1}
	if got := f.page(p); !slices.Equal(got, stale[:1]) {
		t.Fatalf("expired at expires_at: got %v, want %v", got, stale[:1])
	}
	p.Status = coupon.Used
	if got := f.page(p); !slices.Equal(got, []string{used}) {
		t.Fatalf("used: got %v, want %v", got, []string{used})
	}
}

// testWalletPagesArchived: with the archive, a wallet's pages hold live
// and archived coupons together by ID, and a coupon archived while a
// caller pages is read once.
func testWalletPagesArchived(t *testing.T, open opener) {
	f := newFixture(t, open)
	day := f.template(nil)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }
	var all []string
	for i := range 6 {
		c := f.claim(day.ID, "u1", at(i))
		if i%3 == 0 { // the first and the fourth are used, to be archived
			c = f.do(c.ID, act(coupon.Redeem, "o"+c.ID, at(10)))
		}
		all = append(all, c.ID)
	}
	now := t0.Add(time.Hour)
	p := storetype.UserCouponsParams{UserID: "u1", Now: now, Limit: 2, Archived: true}
	first := f.page(p)
	if !slices.Equal(first, all[:2]) {
		t.Fatalf("first page: got %v, want %v", first, all[:2])
	}
	if got := f.archive(at(10), now, 0, false); got.Coupons != 2 {
		t.Fatalf("archived %d coupons, want 2", got.Coupons)
	}
	p.After = first[1]
	rest := ids(f.walletPages(p))
	if got := slices.Concat(first, rest); !slices.Equal(got, all) {
		t.Fatalf("pages across an archive run: got %v, want %v, each once by ID", got, all)
	}
	if got := ids(f.wallet("u1", coupon.Used, now)); !slices.Equal(got, []string{all[0], all[3]}) {
		t.Fatalf("used, archived among the live: got %v, want %v", got, []string{all[0], all[3]})
	}
	if got := ids(f.userCoupons("u1", 0, now)); !slices.Equal(got, []string{all[1], all[2], all[4], all[5]}) {
		t.Fatalf("without the archive: got %v", got)
	}
}

// testWalletPageBounds: a page asks 1 to storetype.MaxWalletPage coupons
// after a cursor that is an ID; anything else is refused as input.
func testWalletPageBounds(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.claim(f.template(nil).ID, "u1", t0)
	cases := []struct {
		field string
		p     storetype.UserCouponsParams
	}{
		{"limit", storetype.UserCouponsParams{UserID: "u1", Now: t0}},
		{"limit", storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: -1}},
		{"limit", storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: storetype.MaxWalletPage + 1}},
		{"after", storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: 1, After: " cpn"}},
		{"after", storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: 1, After: strings.Repeat("c", 129)}},
	}
	for _, c := range cases {
		cs, err := f.s.UserCoupons(f.ctx, c.p)
		var inv *coupon.InvalidError
		if !errors.As(err, &inv) || inv.Field != c.field {
			t.Fatalf("UserCoupons(%+v): got %d coupons, %v; want %s refused", c.p, len(cs), err, c.field)
		}
	}
	if got := f.page(storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: storetype.MaxWalletPage}); len(got) != 1 {
		t.Fatalf("a page of the most: got %v, want the one coupon", got)
	}
}
