package store

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// A SKU's stock is split into buckets, one row each, so that the orders
// of a flash sale do not all queue on one row lock. Every transaction
// picks a bucket number at random when it begins (txn.pick); a stock move
// of a SKU of n buckets runs on bucket pick % n, one guarded statement,
// and falls back to the SKU's other buckets only when that one is short
// (see moveStock). Only available is guarded per bucket: a payment or a
// close gives back what an order reserved in its own transaction's
// bucket, not the one the order reserved in, so a bucket's reserved may
// go negative while the sums over the SKU stay exact.

// stockMove names one of the moves between a SKU's counters.
type stockMove string

// The stock moves.
const (
	// Reserve: available to reserved, for an order created.
	Reserve stockMove = "reserve"
	// Sell: reserved to sold, for an order paid.
	Sell stockMove = "sell"
	// Release: reserved back to available, for an order closed.
	Release stockMove = "release"
)

// delta is move of qty units in bucket b of n.
func (m stockMove) delta(sku string, qty int64, b, n int, now time.Time) driver.StockDelta {
	d := driver.StockDelta{SKU: sku, Bucket: b, Buckets: n, Now: now}
	switch m {
	case Reserve:
		d.Available, d.Reserved = -qty, qty
	case Sell:
		d.Reserved, d.Sold = -qty, qty
	case Release:
		d.Reserved, d.Available = -qty, qty
	}
	return d
}

// bucketCounts remembers the bucket count of every SKU this process saw
// split into more than one bucket, so that a stock move names its row by
// its key; a SKU it does not know is taken to have one. A count gone
// stale costs one fallback, never a wrong move: the move's statement
// checks the count the rows hold.
type bucketCounts struct{ m sync.Map }

// get returns sku's bucket count as last seen.
func (c *bucketCounts) get(sku string) int {
	if n, ok := c.m.Load(sku); ok {
		return n.(int)
	}
	return 1
}

// set records sku's bucket count.
func (c *bucketCounts) set(sku string, n int) {
	if n > 1 {
		c.m.Store(sku, n)
	} else {
		c.m.Delete(sku)
	}
}

// errStockChanged: a locked bucket refused a move computed from it.
var errStockChanged = errors.New("stock bucket changed under its lock")

// shortBucketError: a transaction's own bucket of SKU was short, and it
// may hold that bucket's row (PostgreSQL keeps the lock of a row an
// UPDATE waited for and then found short; MariaDB, at times, too). It
// must not wait for the SKU's other buckets while it holds one out of
// bucket order, so run rolls it back and runs it again with the SKU in
// txn.locked.
type shortBucketError struct{ SKU string }

func (e *shortBucketError) Error() string { return "own stock bucket of " + e.SKU + " short" }

// shortBucket returns the SKU of a shortBucketError.
func shortBucket(err error) (string, bool) {
	var e *shortBucketError
	if errors.As(err, &e) {
		return e.SKU, true
	}
	return "", false
}

// moveStock runs move of it.Qty units of it.SKU in t: one guarded
// statement on the transaction's own bucket. If that changes nothing (the
// bucket is short, or the SKU's bucket count is not the one remembered),
// it locks the SKU's buckets in bucket order and moves the units there
// (see lockedMove) — at once if its own bucket was bucket 0, which comes
// first in that order, else in a transaction run again (see
// shortBucketError). ErrNotFound if the SKU is unknown; errNoRow if a
// reserve finds fewer units available in all its buckets.
func moveStock(t *txn, move stockMove, it order.Item, now time.Time) error {
	if !t.locked[it.SKU] {
		n := t.buckets.get(it.SKU)
		ok, err := t.AddStock(t.ctx, move.delta(it.SKU, it.Qty, t.pick%n, n, now))
		if err != nil || ok {
			return err
		}
		if t.pick%n != 0 {
			return &shortBucketError{SKU: it.SKU}
		}
	}
	bs, err := lockStock(t, it.SKU)
	if err != nil {
		return err
	}
	t.buckets.set(it.SKU, len(bs))
	ds, err := lockedMove(bs, move, it, t.pick%len(bs), now)
	if err != nil {
		return err
	}
	for _, d := range ds {
		if d.Available == 0 && d.Reserved == 0 && d.Sold == 0 {
			continue
		}
		if ok, err := t.AddStock(t.ctx, d); err != nil || !ok {
			return orErr(err, fmt.Errorf("%s bucket %d: %w", it.SKU, d.Bucket, errStockChanged))
		}
	}
	return nil
}

// lockedMove returns the change of each of bs, a SKU's locked buckets,
// that runs move of it.Qty units in bucket own; a reserve takes the
// units where reserveFrom says. errNoRow if the buckets are short.
func lockedMove(bs []driver.StockBucket, move stockMove, it order.Item, own int, now time.Time) ([]driver.StockDelta, error) {
	ds := make([]driver.StockDelta, len(bs))
	for b := range ds {
		ds[b] = driver.StockDelta{SKU: it.SKU, Bucket: b, Buckets: len(bs), Now: now}
	}
	ds[own] = move.delta(it.SKU, it.Qty, own, len(bs), now)
	if move != Reserve {
		return ds, nil
	}
	takes := reserveFrom(bs, own, it.Qty)
	if takes == nil {
		return nil, errNoRow
	}
	ds[own].Available = 0
	for b, take := range takes {
		ds[b].Available -= take
	}
	return ds, nil
}

// reserveFrom says how many units to take from each of bs, a SKU's
// buckets, to reserve qty: all from own if it holds them, else all from
// the first other bucket that does, else from each bucket in bucket
// order until qty is gathered. Nil if the buckets hold fewer in all.
func reserveFrom(bs []driver.StockBucket, own int, qty int64) []int64 {
	takes := make([]int64, len(bs))
	if bs[own].Available >= qty {
		takes[own] = qty
		return takes
	}
	for b := range bs {
		if bs[b].Available >= qty {
			takes[b] = qty
			return takes
		}
	}
	left := qty
	for b := range bs {
		takes[b] = min(bs[b].Available, left)
		left -= takes[b]
	}
	if left > 0 {
		return nil
	}
	return takes
}

// lockReads is how often lockStock reads a SKU's buckets before it gives
// up on a set of buckets that keeps changing.
const lockReads = 10

// lockStock reads every bucket of sku and holds them, in bucket order, so
// that two transactions that lock them never wait on each other in a
// cycle; ErrNotFound if the SKU is unknown. On PostgreSQL a read that
// waited for a PutSKU adding buckets misses the rows that PutSKU inserted
// (they are not in its statement's snapshot): a read short of the SKU's
// bucket count is read again.
func lockStock(t *txn, sku string) ([]driver.StockBucket, error) {
	for range lockReads {
		bs, err := t.StockBuckets(t.ctx, sku)
		if err != nil {
			return nil, err
		}
		if len(bs) == 0 {
			return nil, storetype.ErrNotFound
		}
		if complete(bs) {
			return bs, nil
		}
	}
	return nil, fmt.Errorf("stock of %s: buckets keep changing", sku)
}

// complete reports whether bs holds every bucket of its SKU, in order.
func complete(bs []driver.StockBucket) bool {
	for i, b := range bs {
		if b.Bucket != i || b.Buckets != len(bs) {
			return false
		}
	}
	return true
}

// sumStock adds up a SKU's buckets.
func sumStock(sku string, bs []driver.StockBucket) storetype.SKU {
	k := storetype.SKU{SKU: sku, Buckets: len(bs)}
	for _, b := range bs {
		k.Available += b.Available
		k.Reserved += b.Reserved
		k.Sold += b.Sold
	}
	return k
}

// putSKUIn sets a SKU's total stock and bucket count in t, creating it if
// new; a stock below what is reserved and sold is refused. It locks the
// SKU's buckets and writes them anew: the available units spread evenly,
// reserved and sold (whatever the buckets held of them) in bucket 0.
func putSKUIn(t *txn, p PutSKUParams) (storetype.SKU, error) {
	bs, err := lockStock(t, p.SKU)
	if errors.Is(err, storetype.ErrNotFound) {
		if err = t.NewStock(t.ctx, driver.NewStockParams{SKU: p.SKU, Now: p.Now}); err == nil {
			bs, err = lockStock(t, p.SKU)
		}
	}
	if err != nil {
		return storetype.SKU{}, err
	}
	cur := sumStock(p.SKU, bs)
	if p.Stock < cur.Reserved+cur.Sold {
		return cur, &coupon.InvalidError{Field: "stock", Reason: fmt.Sprintf("below reserved + sold (%d)", cur.Reserved+cur.Sold)}
	}
	n := p.Buckets
	if n == 0 {
		n = cur.Buckets
	}
	next, err := writeStock(t, p.SKU, storetype.SKU{Reserved: cur.Reserved, Sold: cur.Sold, Buckets: n}, p.Stock, p.Now)
	if err != nil {
		return cur, err
	}
	return next, nil
}

// writeStock writes a SKU's buckets anew, k.Buckets of them, in t, whose
// buckets it holds: stock in all, k.Reserved and k.Sold in bucket 0, and
// what they leave of stock available, spread evenly. It returns the sums.
func writeStock(t *txn, sku string, k storetype.SKU, stock int64, now time.Time) (storetype.SKU, error) {
	next := spreadStock(stock-k.Reserved-k.Sold, k.Buckets, stock)
	next[0].Reserved, next[0].Sold = k.Reserved, k.Sold
	for _, b := range next {
		if err := t.PutStockBucket(t.ctx, driver.PutStockBucketParams{SKU: sku, Bucket: b, Now: now}); err != nil {
			return storetype.SKU{}, err
		}
	}
	if err := t.DropStockBuckets(t.ctx, driver.DropStockBucketsParams{SKU: sku, From: k.Buckets}); err != nil {
		return storetype.SKU{}, err
	}
	t.buckets.set(sku, k.Buckets)
	return sumStock(sku, next), nil
}

// spreadStock returns n buckets of a SKU of stock sharing available
// evenly, the first ones a unit more where it does not divide.
func spreadStock(available int64, n int, stock int64) []driver.StockBucket {
	bs := make([]driver.StockBucket, n)
	for i := range bs {
		bs[i] = driver.StockBucket{Bucket: i, Buckets: n, Available: available / int64(n), Stock: stock}
		if int64(i) < available%int64(n) {
			bs[i].Available++
		}
	}
	return bs
}

// stockError says why reserving it failed: an unknown SKU is a bad field,
// a short one is out of stock.
func stockError(items []order.Item, it order.Item, err error) error {
	switch {
	case errors.Is(err, storetype.ErrNotFound):
		for i := range items {
			if items[i].SKU == it.SKU {
				return &coupon.InvalidError{Field: fmt.Sprintf("items[%d].sku", i), Reason: "no such SKU"}
			}
		}
	case errors.Is(err, errNoRow):
		return order.ErrInsufficientStock
	}
	return err
}
