package engine

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// localHolder is the name an engine alone on its store works operations
// under: the same after a restart, so that it resumes them at once.
const localHolder = "local"

// DefaultOperationBatch is how many coupons a batch of a bulk operation
// works unless told otherwise: fewer than a drain's, since an operation
// has no deadline and each batch's commit is what a checkout beside it
// waits behind (a bulk void of 1 M coupons on PostgreSQL here, user p99
// against idle: 3.6× with batches of 1,000, 2.0× of 250, 1.6–1.7× of 100).
const DefaultOperationBatch = 100

// DefaultOperationShare is the share of its time a bulk operation's
// worker spends in batches unless told otherwise, on a store whose
// writers run side by side (PostgreSQL, MySQL): half.
const DefaultOperationShare = 0.5

// OneWriterOperationShare is that default on a store with one writer
// (SQLite), where each batch holds every user's write back until it
// commits, and takes the processor from the users' requests in the same
// process: a quarter. (A bulk void of 1 M coupons on SQLite here, user
// write p99 against idle: 2.1–2.5× at a half, 1.4–1.6× at a quarter.)
const OneWriterOperationShare = 0.25

// OperationShare is share, or if it is 0 the default share on a store
// with one writer or not.
func OperationShare(share float64, oneWriter bool) float64 {
	switch {
	case share != 0:
		return share
	case oneWriter:
		return OneWriterOperationShare
	}
	return DefaultOperationShare
}

// workOperations works the bulk operations this engine may take, one at
// a time, each in batches of OperationBatch until it is done, its lease is
// lost or the engine stops: at start, unfinished operations are resumed
// after the last batch they committed. With many instances, one works
// an operation at a time, by a lease of LeaseTTL in its row.
func (e *Engine) workOperations(ctx context.Context) {
	if e.Err() != nil {
		return
	}
	holder := e.cfg.Holder
	if holder == "" {
		holder = localHolder
	}
	for ctx.Err() == nil {
		op, ok, err := e.cfg.Store.ClaimOperation(ctx, store.ClaimOperationParams{Holder: holder, TTL: e.operationTTL(), Now: e.cfg.Now()})
		if err != nil {
			e.logErr("engine: claim an operation", err)
			return
		}
		if !ok {
			return
		}
		e.cfg.Log.Info("engine: working operation", slog.String("id", op.ID), slog.String("kind", string(op.Kind)), slog.Int64("done", op.Done))
		for op.State == storetype.OperationRunning && ctx.Err() == nil {
			before, began := op.Counts, time.Now()
			op, err = e.cfg.Store.WorkOperation(ctx, store.WorkOperationParams{ID: op.ID, Holder: holder, TTL: e.operationTTL(), Now: e.cfg.Now(), Limit: e.cfg.OperationBatch})
			if err != nil {
				if !errors.Is(err, store.ErrLeaseLost) {
					e.logErr("engine: work operation "+op.ID, err)
				}
				return
			}
			e.cfg.Metrics.operationBatch(op.Kind, op.Counts.Voided+op.Counts.Extended-before.Voided-before.Extended)
			if op.State == storetype.OperationRunning {
				e.rest(ctx, time.Since(began))
			}
		}
	}
}

// rest waits, after a batch that took d, as long as OperationShare asks.
func (e *Engine) rest(ctx context.Context, d time.Duration) {
	pause(ctx, RestAfter(d, e.cfg.OperationShare))
}

// pause waits for d, or until ctx is done.
func pause(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// RestAfter is how long a worker spending share of its time in batches
// rests after one that took d: d×(1−share)/share, nothing at share 1.
func RestAfter(d time.Duration, share float64) time.Duration {
	return time.Duration(float64(d) * (1 - share) / share)
}

// operationTTL is how long an operation's lease lasts unrenewed: its
// batches renew it.
func (e *Engine) operationTTL() time.Duration {
	if e.cfg.LeaseTTL > 0 {
		return e.cfg.LeaseTTL
	}
	return 30 * time.Second
}
