package drivertest

import (
	"context"
	"slices"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// leaseTests test the shard lease and instance rows. Their times are the
// database's clock: a TTL in the past makes a lease expired at once.
var leaseTests = []test{
	{"TakeRenewDrop", testLeases},
	{"Expired", testLeasesExpired},
	{"Lock", testLockLeases},
	{"Instances", testInstances},
}

// leaseTx runs the lease method m with p in a transaction and returns
// the leases it returned, by shard.
func (f *fixture) leaseTx(what string, m func(driver.Executor, context.Context, driver.LeaseParams) ([]storetype.Lease, error), p driver.LeaseParams) []storetype.Lease {
	f.t.Helper()
	ls := read(f, what, func(tx driver.Executor) ([]storetype.Lease, error) { return m(tx, f.ctx, p) })
	slices.SortFunc(ls, func(a, b storetype.Lease) int { return a.Shard - b.Shard })
	return ls
}

// wantShards fails unless ls are of shards, in order.
func (f *fixture) wantShards(what string, ls []storetype.Lease, shards ...int) {
	f.t.Helper()
	got := keys(ls, leaseShard)
	if !slices.Equal(got, shards) && !(len(got) == 0 && len(shards) == 0) {
		f.t.Fatalf("%s: got shards %v, want %v", what, got, shards)
	}
}

// holders reads every shard's holder, by shard.
func (f *fixture) holders() []string {
	f.t.Helper()
	ls, err := f.d.Executor().ShardLeases(f.ctx)
	ok(f.t, "ShardLeases", err)
	want(f.t, "ShardLeases", len(ls), storetype.Shards)
	out := make([]string, len(ls))
	for i, l := range ls {
		want(f.t, "ShardLeases order", l.Shard, i)
		out[i] = l.Holder
	}
	return out
}

// testLeases: TakeLeases takes the lowest free shards up to n, each under
// a new token; RenewLeases returns the holder's; DropLeases frees some.
func testLeases(f *fixture) {
	a := f.leaseTx("TakeLeases a", driver.Executor.TakeLeases, driver.LeaseParams{Holder: "a", TTL: time.Hour, N: 3})
	f.wantShards("a takes", a, 0, 1, 2)
	b := f.leaseTx("TakeLeases b", driver.Executor.TakeLeases, driver.LeaseParams{Holder: "b", TTL: time.Hour, N: 100})
	want(f.t, "b takes the rest", len(b), storetype.Shards-3)
	want(f.t, "b's first", b[0].Shard, 3)
	renewed := f.leaseTx("RenewLeases a", driver.Executor.RenewLeases, driver.LeaseParams{Holder: "a", TTL: time.Hour})
	f.wantShards("a renews", renewed, 0, 1, 2)
	for i := range a {
		want(f.t, "renewed token", renewed[i].Token, a[i].Token)
	}
	f.tx(func(tx driver.Executor) {
		ok(f.t, "DropLeases", tx.DropLeases(f.ctx, driver.LeaseParams{Holder: "a", Shards: []int{1, 5}}))
	})
	want(f.t, "dropped shard 1", f.holders()[1], "")
	want(f.t, "shard 5 is b's", f.holders()[5], "b")
	c := f.leaseTx("TakeLeases c", driver.Executor.TakeLeases, driver.LeaseParams{Holder: "c", TTL: time.Hour, N: 100})
	f.wantShards("c takes the free", c, 1)
	want(f.t, "c's token is new", c[0].Token > a[1].Token, true)
}

// testLeasesExpired: an expired lease is renewed by nobody and taken by
// anyone, under a new token.
func testLeasesExpired(f *fixture) {
	a := f.leaseTx("TakeLeases a", driver.Executor.TakeLeases, driver.LeaseParams{Holder: "a", TTL: -time.Minute, N: 1})
	f.wantShards("a takes", a, 0)
	renewed := f.leaseTx("RenewLeases a", driver.Executor.RenewLeases, driver.LeaseParams{Holder: "a", TTL: time.Hour})
	f.wantShards("a renews its expired", renewed)
	b := f.leaseTx("TakeLeases b", driver.Executor.TakeLeases, driver.LeaseParams{Holder: "b", TTL: time.Hour, N: 1})
	f.wantShards("b takes", b, 0)
	want(f.t, "b's token is new", b[0].Token > a[0].Token, true)
}

// testLockLeases: LockLeases returns, with their tokens, the holder's
// unexpired leases among the shards asked, and no other.
func testLockLeases(f *fixture) {
	take := func(holder string, ttl time.Duration, n int) []storetype.Lease {
		return f.leaseTx("TakeLeases "+holder, driver.Executor.TakeLeases, driver.LeaseParams{Holder: holder, TTL: ttl, N: n})
	}
	a, c := take("a", time.Hour, 3), take("c", time.Hour, 1)
	f.wantShards("b takes", take("b", -time.Minute, 1), 4)
	for _, tc := range []struct {
		holder string
		shards []int
		wanted []storetype.Lease
	}{
		{"a", []int{0, 2, 3, 4, 9}, []storetype.Lease{a[0], a[2]}},
		{"c", []int{0, 3}, c},
		{"b", []int{4}, nil},
		{"d", []int{0, 1, 2, 3, 4}, nil},
	} {
		got := f.leaseTx("LockLeases "+tc.holder, driver.Executor.LockLeases, driver.LeaseParams{Holder: tc.holder, Shards: tc.shards})
		f.wantShards("LockLeases "+tc.holder, got, keys(tc.wanted, leaseShard)...)
		for i, l := range got {
			want(f.t, "LockLeases token", l.Token, tc.wanted[i].Token)
		}
	}
}

func leaseShard(l storetype.Lease) int { return l.Shard }

// testInstances: SeenInstance records an instance alive now, and its
// skew only when measured (a skew not measured leaves the one stored);
// Instances reads those seen within a span, by name, through the
// driver's Executor and in a transaction; ForgetInstances forgets those
// unseen for longer.
func testInstances(f *fixture) {
	seen := func(p driver.SeenInstanceParams) {
		f.tx(func(tx driver.Executor) { ok(f.t, "SeenInstance", tx.SeenInstance(f.ctx, p)) })
	}
	seen(driver.SeenInstanceParams{Holder: "b", Skew: time.Second})
	seen(driver.SeenInstanceParams{Holder: "a", Skew: 250 * time.Millisecond, Measured: true})
	seen(driver.SeenInstanceParams{Holder: "a", Skew: time.Second})
	check := func(e driver.Executor) {
		f.t.Helper()
		ins, err := e.Instances(f.ctx, time.Hour)
		ok(f.t, "Instances", err)
		want(f.t, "Instances", len(ins), 2)
		want(f.t, "Instances[0]", ins[0].Name, "a")
		want(f.t, "a's skew, measured", ins[0].Skew, 250*time.Millisecond)
		want(f.t, "a measured", ins[0].SkewAt.IsZero(), false)
		want(f.t, "Instances[1]", ins[1].Name, "b")
		want(f.t, "b's skew, never measured", ins[1].Skew, 0)
		want(f.t, "b never measured", ins[1].SkewAt.IsZero(), true)
	}
	check(f.d.Executor())
	f.tx(check)
	f.tx(func(tx driver.Executor) { ok(f.t, "ForgetInstances", tx.ForgetInstances(f.ctx, -time.Hour)) })
	ins, err := f.d.Executor().Instances(f.ctx, time.Hour)
	ok(f.t, "Instances", err)
	want(f.t, "Instances forgotten", len(ins), 0)
}
