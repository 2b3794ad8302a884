package engine

import (
	"context"
	"errors"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// archive moves the coupons and orders terminal for longer than
// ArchiveAfter to the archive and prunes reminder history (see
// store.DB.Archive), a batch of BatchSize rows per transaction. One
// instance of many archives: the one that Leads, each batch fenced by its
// lease of shard 0. An engine whose clock is not to be trusted (see Err)
// leaves them be.
func (e *Engine) archive(ctx context.Context) {
	if e.cfg.ArchiveAfter <= 0 || e.Err() != nil || !e.Leads() {
		return
	}
	var lead []storetype.Lease
	if e.leases != nil {
		for _, l := range e.leases.Held() {
			if l.Shard == 0 {
				lead = append(lead, l)
			}
		}
	}
	now := e.cfg.Now()
	_, err := e.cfg.Store.Archive(ctx, store.ArchiveParams{Before: now.Add(-e.cfg.ArchiveAfter), Now: now, Limit: e.cfg.BatchSize, Leases: lead})
	switch {
	case errors.Is(err, store.ErrLeaseLost):
		e.leases.lost(ctx)
	case err != nil:
		e.logErr("engine: archive", err)
	}
}
