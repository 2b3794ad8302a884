package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// testLeaseEveryDrainOneShard: under the lease of one shard, DueOrders,
// ReleaseLocks and CloseDueOrders each take that shard's rows only, and
// say nothing is left once the shard is drained while other shards still
// have due rows (DueOrders, before the deadlines, names the first of its
// shard); over every shard they take each row once.
func testLeaseEveryDrainOneShard(t *testing.T, open opener) {
	of := newOrderFixture(t, open)
	f := of.fixture
	of.putSKU(sku1, 1000)
	const n = 24
	tp := f.durationTemplate()
	orders := map[string]bool{}
	for i := range n {
		f.do(f.claimDue(tp, fmt.Sprintf("u%d", i), t0.Add(time.Hour)).ID, lock(fmt.Sprintf("o%d", i), t0, 10*time.Minute))
		orders[of.create().ID] = true
	}
	held := f.lease("a")
	released, closed := 0, map[string]bool{}
	for s := range storetype.Shards {
		p := storetype.DueParams{Now: t0, Limit: 100, Leases: []storetype.Lease{held[s]}}
		early, err := f.s.DueOrders(f.ctx, p)
		if err != nil {
			t.Fatalf("DueOrders(shard %d, t0): %v", s, err)
		}
		p.Now = farFuture
		due, err := f.s.DueOrders(f.ctx, p)
		if err != nil {
			t.Fatalf("DueOrders(shard %d): %v", s, err)
		}
		r, err := f.s.ReleaseLocks(f.ctx, p)
		if err != nil {
			t.Fatalf("ReleaseLocks(shard %d): %v", s, err)
		}
		c, err := f.s.CloseDueOrders(f.ctx, p)
		if err != nil {
			t.Fatalf("CloseDueOrders(shard %d): %v", s, err)
		}
		if !r.Next.IsZero() || !c.Next.IsZero() || !due.Next.IsZero() {
			t.Fatalf("shard %d: next %s (release), %s (close), %s (due orders) after its drain, want none left in the shard",
				s, fmtTime(r.Next), fmtTime(c.Next), fmtTime(due.Next))
		}
		if len(r.Due) == n || len(c.Due) == n {
			t.Fatalf("shard %d: released %d, closed %d of %d: the lease did not limit the drain", s, len(r.Due), len(c.Due), n)
		}
		if len(early.Orders) != 0 || early.Next.IsZero() != (len(due.Orders) == 0) {
			t.Fatalf("shard %d: at t0 DueOrders listed %d, next %s, for %d orders in the shard", s, len(early.Orders), fmtTime(early.Next), len(due.Orders))
		}
		if len(c.Due) != len(due.Orders) {
			t.Fatalf("shard %d: DueOrders listed %d, CloseDueOrders closed %d", s, len(due.Orders), len(c.Due))
		}
		for _, o := range due.Orders {
			if closed[o.ID] || !orders[o.ID] {
				t.Fatalf("shard %d: order %s listed again or unknown", s, o.ID)
			}
			if got := of.order(o.ID).Status; got != order.Closed {
				t.Fatalf("shard %d: order %s listed due, then %s, want closed", s, o.ID, got)
			}
			closed[o.ID] = true
		}
		released += len(r.Due)
	}
	if released != n || len(closed) != n {
		t.Fatalf("over every shard: released %d coupons, closed %d orders, want %d each", released, len(closed), n)
	}
}
