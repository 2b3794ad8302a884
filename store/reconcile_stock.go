package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// stockDrift is a SKU found out of step, as read, and the reserved its
// open orders hold, once confirmed.
type stockDrift struct {
	seen   driver.StockSum
	checks []string
	open   int64
}

// stock checks every SKU: available + reserved + sold = stock, no
// counter below zero, reserved = what the open orders hold. A SKU whose
// reserved differs from the open orders read before it is a candidate;
// the open orders are read again after, and only a SKU whose reserved,
// as read, differs from those too is drift: an order created or closed in
// between moved the SKU's reserved in the same transaction, so both reads
// cannot miss it.
func (r *reconciler) stock(ctx context.Context) error {
	open, err := r.openStock(ctx, nil)
	if err != nil {
		return err
	}
	var drifts []*stockDrift
	candidates := map[string]*stockDrift{}
	err = eachRow(ctx, r.db, driver.PageParams{Limit: r.p.Batch}, driver.Executor.StockPage, func(last driver.StockSum, p *driver.PageParams) { p.After = last.SKU.SKU },
		func(k driver.StockSum) error {
			d := &stockDrift{seen: k}
			if k.Available+k.Reserved+k.Sold != k.Stock {
				d.checks = append(d.checks, CheckStockTotal)
			}
			if min(k.Available, k.Reserved, k.Sold) < 0 {
				d.checks = append(d.checks, CheckStockNegative)
			}
			if k.Reserved != open[k.SKU.SKU] && len(candidates) < maxDrift {
				candidates[k.SKU.SKU] = d
			}
			if len(d.checks) > 0 || candidates[k.SKU.SKU] == d {
				drifts = append(drifts, d)
			}
			return nil
		})
	if err != nil {
		return err
	}
	if len(candidates) > 0 {
		if open, err = r.openStock(ctx, candidates); err != nil {
			return err
		}
	}
	for _, d := range drifts {
		d.open = d.seen.Reserved
		if _, ok := candidates[d.seen.SKU.SKU]; ok && open[d.seen.SKU.SKU] != d.seen.Reserved {
			d.open = open[d.seen.SKU.SKU]
			d.checks = append(d.checks, CheckStockReserved)
		}
		if err := r.stockFound(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// openStock sums, per SKU, the units the open orders hold: of every SKU,
// or of those in only if set.
func (r *reconciler) openStock(ctx context.Context, only map[string]*stockDrift) (map[string]int64, error) {
	open := map[string]int64{}
	err := r.pageOpenOrders(ctx, func(o order.Order) error {
		for _, it := range o.Items {
			if _, ok := only[it.SKU]; ok || only == nil {
				open[it.SKU] += it.Qty
			}
		}
		return nil
	})
	return open, err
}

// stockFound records each drift of one SKU, repaired together by one
// rewrite of its buckets.
func (r *reconciler) stockFound(ctx context.Context, d *stockDrift) error {
	k := d.seen
	repaired := map[string]bool{}
	repair := func(ctx context.Context) (bool, error) {
		if len(repaired) == 0 {
			ok, err := r.repairStock(ctx, d)
			for _, c := range d.checks {
				repaired[c] = ok
			}
			if err != nil {
				return false, err
			}
		}
		return repaired[CheckStockTotal] || repaired[CheckStockNegative] || repaired[CheckStockReserved], nil
	}
	for _, c := range d.checks {
		drift := Drift{Check: c, Subject: k.SKU.SKU}
		switch c {
		case CheckStockTotal:
			drift.Expected, drift.Actual = k.Stock, k.Available+k.Reserved+k.Sold
			drift.Detail = fmt.Sprintf("available %d + reserved %d + sold %d is not the stock %d", k.Available, k.Reserved, k.Sold, k.Stock)
		case CheckStockNegative:
			drift.Actual = min(k.Available, k.Reserved, k.Sold)
			drift.Detail = fmt.Sprintf("a counter is below zero: available %d, reserved %d, sold %d", k.Available, k.Reserved, k.Sold)
		case CheckStockReserved:
			drift.Expected, drift.Actual = d.open, k.Reserved
			drift.Detail = fmt.Sprintf("reserved %d, open orders hold %d", k.Reserved, d.open)
		}
		if err := r.found(ctx, drift, repair); err != nil {
			return err
		}
	}
	return nil
}

// StockRepair is the data of a stock.repaired event: the SKU's counters
// before and after, the stock they add up to, and the checks that found
// it out of step.
type StockRepair struct {
	Checks []string       `json:"checks"`
	Stock  int64          `json:"stock"`
	Before StockRepairSum `json:"before"`
	After  StockRepairSum `json:"after"`
}

// StockRepairSum is a SKU's counters in a StockRepair.
type StockRepairSum struct {
	Available int64 `json:"available"`
	Reserved  int64 `json:"reserved"`
	Sold      int64 `json:"sold"`
}

// repairStock rewrites the buckets of d's SKU, in one transaction that
// holds them, so that reserved is what its open orders hold and
// available what reserved and sold leave of the stock, with a
// stock.repaired event. It changes nothing, and says false, if the
// buckets no longer sum to what the check read (a transaction moved them
// since: the next run looks again), the open orders were not read for
// it (past MaxDrift candidates) and its reserved is below zero, or the
// stock is short of reserved + sold.
func (r *reconciler) repairStock(ctx context.Context, d *stockDrift) (bool, error) {
	return background(ctx, r.db, func(t *txn) (bool, error) {
		sku := d.seen.SKU.SKU
		bs, err := lockStock(t, sku)
		if err != nil {
			return false, err
		}
		cur := sumStock(sku, bs)
		if cur != d.seen.SKU || d.open < 0 || d.seen.Stock < d.open+cur.Sold {
			return false, nil
		}
		next, err := writeStock(t, sku, storetype.SKU{Reserved: d.open, Sold: cur.Sold, Buckets: cur.Buckets}, d.seen.Stock, r.p.Now)
		if err != nil {
			return false, err
		}
		data := StockRepair{
			Checks: slices.Sorted(slices.Values(d.checks)), Stock: d.seen.Stock,
			Before: StockRepairSum{cur.Available, cur.Reserved, cur.Sold},
			After:  StockRepairSum{next.Available, next.Reserved, next.Sold},
		}
		return true, t.Event(storetype.Event{ID: NewID("evt", r.p.Now), Type: EventStockRepaired, Subject: sku, Time: r.p.Now, Data: mustJSON(data)})
	})
}
