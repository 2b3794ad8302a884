package engine

import (
	"context"

	"github.com/lapsehq/lapse/storetype"
)

// pruneBatch is how many expired idempotency keys one statement deletes,
// so that a request taking a key over waits for a small batch at most.
const pruneBatch = 500

// pruneRequests deletes the idempotency keys older than IdempotencyTTL, a
// batch at a time, until none is left. Every instance on a store prunes:
// a key deleted twice is deleted once. An engine whose clock is not to be
// trusted (see Err) leaves them be.
func (e *Engine) pruneRequests(ctx context.Context) {
	if e.Err() != nil {
		return
	}
	before := e.cfg.Now().Add(-e.cfg.IdempotencyTTL)
	for ctx.Err() == nil {
		n, err := e.cfg.Store.PruneRequests(ctx, storetype.PruneRequestsParams{Before: before, Limit: pruneBatch})
		e.cfg.Metrics.requestsPruned(n)
		if err != nil {
			e.logErr("engine: prune idempotency keys", err)
			return
		}
		if n < pruneBatch {
			return
		}
	}
}
