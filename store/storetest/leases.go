package storetest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var leaseTests = []test{
	{"FairShare", testLeaseFairShare},
	{"DrainOneShard", testLeaseDrainOneShard},
	{"StaleLeaseWritesNothing", testLeaseStale},
	{"ExpiredLeaseWritesNothing", testLeaseExpired},
	{"EveryDrainOneShard", testLeaseEveryDrainOneShard},
	{"ShardLeases", testShardLeases},
	{"InstancesWithSkew", testInstances},
}

// leaseTTL is long enough for a test's steps, short enough to wait out.
const leaseTTL = 1500 * time.Millisecond

// lease calls Lease for holder and returns its leases by shard.
func (f *fixture) lease(holder string) map[int]storetype.Lease {
	f.t.Helper()
	ls, err := f.s.Lease(f.ctx, store.LeaseParams{Holder: holder, TTL: leaseTTL})
	if err != nil {
		f.t.Fatalf("Lease(%s): %v", holder, err)
	}
	out := map[int]storetype.Lease{}
	for _, l := range ls {
		if l.Holder != holder || l.Shard < 0 || l.Shard >= storetype.Shards {
			f.t.Fatalf("Lease(%s): got %+v", holder, l)
		}
		if _, dup := out[l.Shard]; dup {
			f.t.Fatalf("Lease(%s): shard %d twice", holder, l.Shard)
		}
		out[l.Shard] = l
	}
	return out
}

// dueCoupons claims n coupons, all due at t0.
func (f *fixture) dueCoupons(n int) []coupon.Coupon {
	tp := f.durationTemplate()
	cs := make([]coupon.Coupon, n)
	for i := range cs {
		cs[i] = f.claimDue(tp, fmt.Sprintf("u%d", i), t0)
	}
	return cs
}

// testLeaseFairShare: one instance takes every shard; a second one gets
// none until the first, renewing, gives up what passes its half; then
// the two hold every shard between them, once.
func testLeaseFairShare(t *testing.T, open opener) {
	f := newFixture(t, open)
	a := f.lease("a")
	if len(a) != storetype.Shards {
		t.Fatalf("alone: holds %d shards, want %d", len(a), storetype.Shards)
	}
	if b := f.lease("b"); len(b) != 0 {
		t.Fatalf("b while a holds all: got %d shards, want 0", len(b))
	}
	a = f.lease("a")
	b := f.lease("b")
	if len(a) != storetype.Shards/2 || len(b) != storetype.Shards/2 {
		t.Fatalf("two instances: a holds %d, b %d, want %d each", len(a), len(b), storetype.Shards/2)
	}
	for s, l := range b {
		if _, both := a[s]; both {
			t.Fatalf("shard %d held by a and b", s)
		}
		if l.Token < 2 {
			t.Fatalf("shard %d changed hands twice, token %d: want at least 2", s, l.Token)
		}
	}
	renewed := f.lease("a")
	if !maps(renewed, a) {
		t.Fatalf("renewal: got %v, want %v unchanged", renewed, a)
	}
}

// maps reports whether two lease sets are the same.
func maps(a, b map[int]storetype.Lease) bool {
	if len(a) != len(b) {
		return false
	}
	for s, l := range a {
		if b[s] != l {
			return false
		}
	}
	return true
}

// testLeaseDrainOneShard: a drain under a lease expires the due coupons
// of its shard only; the drains of every shard together expire each
// coupon once.
func testLeaseDrainOneShard(t *testing.T, open opener) {
	f := newFixture(t, open)
	cs := f.dueCoupons(40)
	held := f.lease("a")
	var seen []string
	for s := range storetype.Shards {
		l := held[s]
		d, err := f.s.ExpireDue(f.ctx, storetype.DueParams{Now: t0, Limit: 100, Leases: []storetype.Lease{l}})
		if err != nil {
			t.Fatalf("ExpireDue(shard %d): %v", s, err)
		}
		before := len(seen)
		for _, e := range f.eventsAfter(0)[len(cs)+before:] {
			seen = append(seen, e.Subject)
		}
		if len(d.Due) != len(seen)-before {
			t.Fatalf("shard %d: drained %d, wrote %d events", s, len(d.Due), len(seen)-before)
		}
		if !d.Next.IsZero() {
			t.Fatalf("shard %d: next %s after its drain, want none left in the shard", s, fmtTime(d.Next))
		}
		if s == 0 && len(seen) == len(cs) {
			t.Fatalf("shard 0 drained all %d coupons: the lease did not limit it", len(cs))
		}
	}
	slices.Sort(seen)
	if len(slices.Compact(seen)) != len(cs) {
		t.Fatalf("expired %d distinct coupons over all shards, want %d", len(seen), len(cs))
	}
}

// testLeaseStale: once a's leases expired and b took the shards, a drain
// under a's old lease fails with ErrLeaseLost and writes nothing; b's
// drains do the work.
func testLeaseStale(t *testing.T, open opener) {
	of := newOrderFixture(t, open)
	f := of.fixture
	cs := f.dueCoupons(20)
	o := of.create() // due at t0+30m, so due to the stale drains at farFuture
	stale := f.lease("a")
	time.Sleep(leaseTTL + 100*time.Millisecond)
	fresh := f.lease("b")
	if len(fresh) != storetype.Shards {
		t.Fatalf("b after a's leases expired: holds %d shards, want %d", len(fresh), storetype.Shards)
	}
	cursor := f.cursor()
	for s, l := range stale {
		f.wantLost(fmt.Sprintf("shard %d under a's stale lease", s), l)
		if fresh[s].Token <= l.Token {
			t.Fatalf("shard %d: b's token %d not above a's %d", s, fresh[s].Token, l.Token)
		}
	}
	f.wantNoneAfter("events of stale drains", cursor)
	if got := f.coupon(cs[0].ID); got.Status != coupon.Unused {
		t.Fatalf("after stale drains: coupon %s, want unused", got.Status)
	}
	expired := 0
	for _, l := range fresh {
		d, err := f.s.ExpireDue(f.ctx, storetype.DueParams{Now: t0, Limit: 100, Leases: []storetype.Lease{l}})
		if err != nil {
			t.Fatalf("ExpireDue under b's lease: %v", err)
		}
		expired += len(d.Due)
	}
	if expired != len(cs) {
		t.Fatalf("b's drains expired %d, want %d", expired, len(cs))
	}
	if got := of.order(o.ID); got.Status != order.Unpaid {
		t.Fatalf("order after stale drains: %s, want unpaid", got.Status)
	}
}

// testLeaseExpired: a lease that expired, even one nobody took, fences
// nothing: its holder's drain writes nothing.
func testLeaseExpired(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.dueCoupons(10)
	held := f.lease("a")
	time.Sleep(leaseTTL + 100*time.Millisecond)
	cursor := f.cursor()
	for s, l := range held {
		f.wantLost(fmt.Sprintf("shard %d under an expired lease", s), l)
	}
	f.wantNoneAfter("events of drains under expired leases", cursor)
}

// wantLost fails unless every drain under l is refused with ErrLeaseLost.
func (f *fixture) wantLost(what string, l storetype.Lease) {
	f.t.Helper()
	p := storetype.DueParams{Now: farFuture, Limit: 100, Leases: []storetype.Lease{l}}
	_, errE := f.s.ExpireDue(f.ctx, p)
	_, errR := f.s.ReleaseLocks(f.ctx, p)
	_, errC := f.s.CloseDueOrders(f.ctx, p)
	for _, err := range []error{errE, errR, errC} {
		if !errors.Is(err, store.ErrLeaseLost) {
			f.t.Fatalf("%s: got %v, want ErrLeaseLost", what, err)
		}
	}
}

// testShardLeases: ShardLeases reads every shard, free on a fresh store,
// then held by the instance that took them, under its tokens, until
// after the database's now.
func testShardLeases(t *testing.T, open opener) {
	f := newFixture(t, open)
	read := func() []storetype.ShardLease {
		ls, err := f.s.ShardLeases(f.ctx)
		if err != nil {
			t.Fatalf("ShardLeases: %v", err)
		}
		if len(ls) != storetype.Shards {
			t.Fatalf("ShardLeases: got %d shards, want %d: %+v", len(ls), storetype.Shards, ls)
		}
		return ls
	}
	now, err := f.s.Clock(f.ctx)
	if err != nil {
		t.Fatalf("Clock: %v", err)
	}
	for i, l := range read() {
		if l.Shard != i || l.Held(now) || l.Holder != "" {
			t.Fatalf("fresh store: shard %d: got %+v, want it free", i, l)
		}
	}
	held := f.lease("a")
	for i, l := range read() {
		if l.Shard != i || l.Holder != "a" || l.Token != held[i].Token || !l.Held(now) {
			t.Fatalf("after a's lease: shard %d: got %+v, want held by a under token %d past %s", i, l, held[i].Token, fmtTime(now))
		}
	}
}

// testInstances: Instances lists, by name, the instances seen within the
// span asked: one that only took leases with no skew measured, one that
// measured its skew with it, as last measured and when on the database's
// clock; none seen within a span shorter than the wait since.
func testInstances(t *testing.T, open opener) {
	f := newFixture(t, open)
	read := func(d time.Duration) []storetype.Instance {
		t.Helper()
		ins, err := f.s.Instances(f.ctx, d)
		if err != nil {
			t.Fatalf("Instances(%s): %v", d, err)
		}
		return ins
	}
	if got := read(time.Minute); len(got) != 0 {
		t.Fatalf("fresh store: got %+v, want no instance", got)
	}
	before, err := f.s.Clock(f.ctx)
	if err != nil {
		t.Fatalf("Clock: %v", err)
	}
	f.lease("b")
	for _, p := range []store.MeasuredSkewParams{{Instance: "a", Skew: time.Second}, {Instance: "a", Skew: -3 * time.Millisecond}} {
		if err := f.s.MeasuredSkew(f.ctx, p); err != nil {
			t.Fatalf("MeasuredSkew(%+v): %v", p, err)
		}
	}
	got := read(time.Minute)
	if len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" {
		t.Fatalf("after a measured and b leased: got %+v, want a and b", got)
	}
	a, b := got[0], got[1]
	early := before.Add(-time.Millisecond) // the stores keep a millisecond at least
	if a.Skew != -3*time.Millisecond || a.SkewAt.Before(early) || a.SeenAt.Before(early) || a.SkewAt.After(before.Add(time.Minute)) {
		t.Fatalf("a: got %+v, want skew -3ms measured and seen since %s", a, before)
	}
	if !b.SkewAt.IsZero() || b.Skew != 0 || b.SeenAt.Before(early) {
		t.Fatalf("b: got %+v, want seen since %s with no skew measured", b, before)
	}
	time.Sleep(50 * time.Millisecond)
	if got := read(10 * time.Millisecond); len(got) != 0 {
		t.Fatalf("seen within 10ms, 50ms after the last sighting: got %+v, want none", got)
	}
}
