package engine

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// leases keeps this instance's shard leases: it renews them every third
// of their TTL, takes its fair share as instances come and go, and knows
// them valid only until a TTL after the last renewal began, so that an
// instance cut off from the database stops draining before its leases
// can pass to another. The store fences every drain besides: this is
// what keeps a healthy instance from trying.
type leases struct {
	st     leaser
	holder string
	ttl    time.Duration
	log    *slog.Logger
	outage *store.Outage // tells of an outage in place of log
	m      *Metrics
	gained func() // called when shards are gained, to drain them at once

	mu    sync.Mutex
	held  []storetype.Lease
	until time.Time
}

// Held returns the leases this instance may drain under now.
func (l *leases) Held() []storetype.Lease {
	l.mu.Lock()
	defer l.mu.Unlock()
	if time.Now().After(l.until) {
		return nil
	}
	return slices.Clone(l.held)
}

// lost forgets the leases held, one of which a drain found lost, and
// renews them: the drain goes on under what is still held.
func (l *leases) lost(ctx context.Context) {
	l.mu.Lock()
	l.held = nil
	l.mu.Unlock()
	l.m.leaseLost()
	l.log.Warn("engine: a shard lease was lost; its drain wrote nothing; renewing")
	l.renew(ctx)
}

// renew takes the fair share of shards and records what is held.
func (l *leases) renew(ctx context.Context) {
	start := time.Now()
	got, err := l.st.Lease(ctx, store.LeaseParams{Holder: l.holder, TTL: l.ttl})
	if err != nil {
		if ctx.Err() == nil && !l.outage.Failed(err) {
			l.log.Error("engine: renew shard leases", slog.Any("err", err))
		}
		return
	}
	l.outage.Served()
	l.mu.Lock()
	gained := slices.ContainsFunc(got, func(x storetype.Lease) bool { return !slices.Contains(l.held, x) })
	if len(got) != len(l.held) || gained {
		l.log.Info("engine: shard leases", slog.Int("held", len(got)), slog.Any("shards", shardsOf(got)))
	}
	l.held, l.until = got, start.Add(l.ttl)
	l.mu.Unlock()
	l.m.shardsHeld(len(got))
	if gained {
		l.gained()
	}
}

// shardsOf lists the shards of ls.
func shardsOf(ls []storetype.Lease) []int {
	out := make([]int, len(ls))
	for i, x := range ls {
		out[i] = x.Shard
	}
	return out
}
