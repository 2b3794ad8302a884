package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var eventTests = []test{
	{"FeedOrder", testEventsFeed},
	{"Paging", testEventsPaging},
	{"NoSkipUnderConcurrentCommits", testEventsNoSkip},
	{"MaxBytes", testEventsMaxBytes},
	{"DrainRecord", testEventsDrainRecord},
	{"CouponEventsData", testCouponEventsData},
	{"CursorPastEnd", testEventsPastEnd},
}

// testEventsPastEnd: a cursor past the last position handed out, which no
// page answered, is refused as input naming the end, where an empty page
// would never fill; the feed's own last cursor, and 0, give empty pages.
// (NoSkipUnderConcurrentCommits follows every cursor a page answered
// while commits go on, and none is refused.)
func testEventsPastEnd(t *testing.T, open opener) {
	f := newFixture(t, open)
	pastEnd := func(after, end int64) {
		t.Helper()
		page, err := f.s.Events(f.ctx, store.EventsParams{After: after, Limit: 10})
		var inv *coupon.InvalidError
		if !errors.As(err, &inv) || inv.Field != "after" || !strings.Contains(inv.Reason, fmt.Sprint(end)) {
			t.Fatalf("Events(after %d), the end at %d: got %d events, %v; want after refused, naming %d", after, end, len(page), err, end)
		}
	}
	empty := func(after int64) {
		t.Helper()
		if page, err := f.s.Events(f.ctx, store.EventsParams{After: after, Limit: 10}); err != nil || len(page) != 0 {
			t.Fatalf("Events(after %d): got %d events, %v; want an empty page", after, len(page), err)
		}
	}
	empty(0)
	pastEnd(1, 0)
	f.history()
	all := f.eventsAfter(0)
	end := all[len(all)-1].Seq
	empty(end)
	pastEnd(end+1, end)
	pastEnd(end+1000, end)
}

// history writes five events: two claims, a lock, a redeem and a void.
func (f *fixture) history() (a, b coupon.Coupon, times []time.Time) {
	f.t.Helper()
	tp := f.template(nil)
	times = []time.Time{t0, t0.Add(time.Millisecond), t0.Add(time.Second), t0.Add(2 * time.Second), t0.Add(3 * time.Second)}
	a = f.claim(tp.ID, "u1", times[0])
	b = f.claim(tp.ID, "u2", times[1])
	f.do(a.ID, lock("o1", times[2], time.Minute))
	f.do(a.ID, act(coupon.Redeem, "o1", times[3]))
	f.do(b.ID, act(coupon.Void, "", times[4]))
	return a, b, times
}

// testEventsFeed: the outbox holds every transition's event in commit
// order, each with a unique ID and its subject, type and time.
func testEventsFeed(t *testing.T, open opener) {
	f := newFixture(t, open)
	a, b, times := f.history()
	es := f.events()
	want := []struct {
		typ     string
		subject string
	}{
		{store.EventCouponClaimed, a.ID},
		{store.EventCouponClaimed, b.ID},
		{store.EventCouponLocked, a.ID},
		{store.EventCouponRedeemed, a.ID},
		{store.EventCouponVoided, b.ID},
	}
	if len(es) != len(want) {
		t.Fatalf("events: got %s, want %d", fmtEvents(es), len(want))
	}
	ids := map[string]bool{}
	for i, e := range es {
		if e.Type != want[i].typ || e.Subject != want[i].subject {
			t.Fatalf("event %d: got %s %s, want %s %s", i, e.Type, e.Subject, want[i].typ, want[i].subject)
		}
		f.wantTime("event time", e.Time, times[i])
		if e.ID == "" || ids[e.ID] {
			t.Fatalf("event %d: ID %q empty or repeated", i, e.ID)
		}
		ids[e.ID] = true
		if i > 0 && e.Seq <= es[i-1].Seq {
			t.Fatalf("event %d: seq %d after %d, want increasing", i, e.Seq, es[i-1].Seq)
		}
		if d := f.data(e); d.UserID == "" || d.TemplateID != a.TemplateID {
			t.Fatalf("event %d data: got %+v, want user and template %s", i, d, a.TemplateID)
		}
	}
}

// testEventsPaging: After and Limit page through the feed without gaps or
// repeats.
func testEventsPaging(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.history()
	all := f.events()
	var paged []storetype.Event
	after := int64(0)
	sizes := []int{}
	for range 10 {
		page, err := f.s.Events(f.ctx, store.EventsParams{After: after, Limit: 2})
		if err != nil {
			t.Fatalf("Events(after %d): %v", after, err)
		}
		sizes = append(sizes, len(page))
		if len(page) == 0 {
			break
		}
		paged = append(paged, page...)
		after = page[len(page)-1].Seq
	}
	if want := []int{2, 2, 1, 0}; !slices.Equal(sizes, want) {
		t.Fatalf("page sizes: got %v, want %v", sizes, want)
	}
	if len(paged) != len(all) {
		t.Fatalf("paged events: got %d, want %d", len(paged), len(all))
	}
	for i := range all {
		if paged[i].ID != all[i].ID || paged[i].Seq != all[i].Seq {
			t.Fatalf("paged event %d: got %d:%s, want %d:%s", i, paged[i].Seq, paged[i].ID, all[i].Seq, all[i].ID)
		}
	}
	// A cursor in the middle.
	rest, err := f.s.Events(f.ctx, store.EventsParams{After: all[2].Seq, Limit: 100})
	if err != nil {
		t.Fatalf("Events(after the third): %v", err)
	}
	if len(rest) != 2 || rest[0].ID != all[3].ID || rest[1].ID != all[4].ID {
		t.Fatalf("events after the third: got %s, want the last two", fmtEvents(rest))
	}
}

// testEventsNoSkip: a reader that follows the feed by its cursor while
// many transactions commit at once sees every event, once, in feed order.
// On a backend whose sequence is not its commit order, a naive
// "WHERE seq > cursor" loses the events of a transaction that committed
// after a later-numbered one was read.
func testEventsNoSkip(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	const writers, each = 8, 25
	var done atomic.Bool
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				c, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: fmt.Sprintf("u%d-%d", w, i), Now: t0})
				if err != nil {
					t.Errorf("Claim: %v", err)
					return
				}
				if _, err := f.s.Transition(f.ctx, store.TransitionParams{CouponID: c.ID, Action: coupon.Void, Now: t0.Add(time.Second)}); err != nil {
					t.Errorf("Void: %v", err)
					return
				}
			}
		})
	}
	go func() { wg.Wait(); done.Store(true) }()
	var seen []storetype.Event
	after := int64(0)
	for {
		last := done.Load()
		page, err := f.s.Events(f.ctx, store.EventsParams{After: after, Limit: 7})
		if err != nil {
			t.Fatalf("Events(after %d): %v", after, err)
		}
		seen = append(seen, page...)
		if len(page) > 0 {
			after = page[len(page)-1].Seq
		} else if last {
			break
		}
	}
	all := f.events()
	if len(all) != 2*writers*each {
		t.Fatalf("events in the feed: got %d, want %d", len(all), 2*writers*each)
	}
	if len(seen) != len(all) {
		t.Fatalf("events the follower saw: got %d, want %d", len(seen), len(all))
	}
	for i := range all {
		if seen[i].ID != all[i].ID {
			t.Fatalf("event %d: the follower saw %s, the feed holds %s", i, seen[i].ID, all[i].ID)
		}
	}
}

// testEventsMaxBytes: a read stops once its events' data reach MaxBytes,
// with at least one event, and the next read goes on from there.
func testEventsMaxBytes(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.history()
	all := f.events()
	size := len(all[0].Data) + len(all[1].Data)
	for _, c := range []struct {
		maxBytes, want int
	}{
		{1, 1},              // one event however small the bound
		{size - 1, 2},       // the event that reaches the bound is the last
		{size, 2},           // reached exactly
		{size + 1, 3},       // not reached by two
		{1 << 30, len(all)}, // the limit, not the bytes, ends it
	} {
		got, err := f.s.Events(f.ctx, store.EventsParams{Limit: 100, MaxBytes: c.maxBytes})
		if err != nil {
			t.Fatalf("Events(MaxBytes %d): %v", c.maxBytes, err)
		}
		if len(got) != c.want || got[0].Seq != all[0].Seq {
			t.Fatalf("Events(MaxBytes %d): got %s, want the first %d of %s", c.maxBytes, fmtEvents(got), c.want, fmtEvents(all))
		}
	}
}

// testEventsDrainRecord: a drain's events, stored as one record, read as
// events one by one: each at its own position, from any cursor inside the
// record, in pages; the outbox size and pruning count them, and pruning
// keeps a record that holds an event past its cursor.
func testEventsDrainRecord(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	const n = 30
	due := t0.Add(time.Second)
	for i := range n {
		f.claimDue(tp, fmt.Sprintf("u%d", i), due)
	}
	claims := f.cursor()
	if d := f.expireDue(due, 100); len(d.Due) != n {
		t.Fatalf("drain: got %d expired, want %d", len(d.Due), n)
	}
	expired := f.eventsAfter(claims)
	if len(expired) != n {
		t.Fatalf("events of the drain: got %d, want %d", len(expired), n)
	}
	for i, e := range expired {
		if e.Seq != claims+int64(i)+1 || e.Type != store.EventCouponExpired {
			t.Fatalf("drain event %d: got %s at %d, want coupon.expired at %d", i, e.Type, e.Seq, claims+int64(i)+1)
		}
	}
	for k := range n {
		page, err := f.s.Events(f.ctx, store.EventsParams{After: expired[k].Seq - 1, Limit: 7})
		if err != nil {
			t.Fatalf("Events(after %d): %v", expired[k].Seq-1, err)
		}
		want := expired[k:min(k+7, n)]
		if !slices.EqualFunc(page, want, func(a, b storetype.Event) bool { return a.ID == b.ID && a.Seq == b.Seq }) {
			t.Fatalf("page after %d: got %s, want %s", expired[k].Seq-1, fmtEvents(page), fmtEvents(want))
		}
	}
	if st := f.stats(due); st.Outbox != 2*n {
		t.Fatalf("outbox: got %d, want %d", st.Outbox, 2*n)
	}
	prune := func(through int64, want int64) {
		t.Helper()
		got, err := f.s.PruneEvents(f.ctx, store.PruneParams{Through: through, Before: later, Limit: 1000})
		if err != nil || got != want {
			t.Fatalf("PruneEvents(through %d): got %d, %v; want %d", through, got, err, want)
		}
	}
	prune(expired[n/2].Seq, n) // the claims, not the record past the cursor
	front, err := f.s.Events(f.ctx, store.EventsParams{Limit: 5})
	if err != nil || len(front) != 5 || front[0].ID != expired[0].ID {
		t.Fatalf("front after pruning the claims: got %s, %v; want the drain's first five", fmtEvents(front), err)
	}
	prune(expired[n-1].Seq, n)
	if all := f.events(); len(all) != 0 {
		t.Fatalf("feed after pruning all: got %s", fmtEvents(all))
	}
}

// testCouponEventsData: the coupon.claimed events of a bulk issuance and
// the coupon.expired events of a drain, stored compactly, read as what
// store.CouponEvent writes, byte for byte, with store.CouponEventID's
// IDs; a drain's coupons of different templates and expiries included.
func testCouponEventsData(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.Duration = time.Hour + 123*time.Millisecond })
	other := f.template(func(tp *coupon.Template) { tp.Duration = time.Hour + 123*time.Millisecond - time.Minute })
	user := "ü\"<&1"
	claimedAt := t0.Add(456 * time.Millisecond)
	if _, err := f.s.Issue(f.ctx, store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{user, "u2"}), Now: claimedAt}); err != nil {
		t.Fatalf("Issue: %v", err)
	}
	early := f.claim(other.ID, user, claimedAt)
	cs := f.userCoupons(user, coupon.Unused, claimedAt)
	cs = append(cs, f.userCoupons("u2", coupon.Unused, claimedAt)...)
	expiredAt := claimedAt.Add(tp.Duration + 789*time.Millisecond)
	if d := f.expireDue(expiredAt, 10); len(d.Due) != 3 {
		t.Fatalf("drain: got %d expired, want 3", len(d.Due))
	}
	byID := map[string]coupon.Coupon{}
	for _, c := range cs {
		byID[c.ID] = c
	}
	if len(byID) != 3 || byID[early.ID].ID == "" {
		t.Fatalf("coupons: got %v, want the two issued and %s", cs, early.ID)
	}
	evs := f.events()
	if len(evs) != 6 {
		t.Fatalf("events: got %s, want 3 claims and 3 expiries", fmtEvents(evs))
	}
	for _, e := range evs {
		c := byID[e.Subject]
		want := store.CouponEvent(c, store.EventCouponClaimed, 0, store.ReasonClaim, "", c.ClaimedAt)
		if e.Type == store.EventCouponExpired {
			want = store.CouponEvent(c, store.EventCouponExpired, coupon.Unused, store.ReasonExpiry, "", expiredAt)
		}
		want.ID = store.CouponEventID(c.ID, want.Time)
		if e.ID != want.ID || e.Type != want.Type || !e.Time.Equal(want.Time) || string(e.Data) != string(want.Data) {
			t.Fatalf("event of %s: got %s %s at %s %s, want %s %s at %s %s", c.ID,
				e.ID, e.Type, fmtTime(e.Time), e.Data, want.ID, want.Type, fmtTime(want.Time), want.Data)
		}
	}
}
