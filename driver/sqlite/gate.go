package sqlite

import (
	"context"
	"sync"
	"time"
)

// maxYield bounds how long a background transaction waits for the users.
const maxYield = 50 * time.Millisecond

// gate orders the one writer connection between foreground writes (a
// user's request) and background ones (the engine's drains, the batches of
// a bulk issuance): a background transaction does not begin while a
// foreground one waits or runs, so a user waits at most for the background
// batch already in flight. One that has yielded for maxYield begins
// anyway, so a steady stream of users cannot starve the drains.
type gate struct {
	mu    sync.Mutex
	users int
	idle  chan struct{} // closed while users == 0
}

func newGate() *gate {
	g := &gate{idle: make(chan struct{})}
	close(g.idle)
	return g
}

// enter registers a foreground write until the func it returns is called.
func (g *gate) enter() func() {
	g.mu.Lock()
	if g.users == 0 {
		g.idle = make(chan struct{})
	}
	g.users++
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		if g.users--; g.users == 0 {
			close(g.idle)
		}
		g.mu.Unlock()
	}
}

// busy reports whether a foreground write waits or runs.
func (g *gate) busy() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.users > 0
}

// yield waits until no foreground write waits or runs, or maxYield passes.
func (g *gate) yield(ctx context.Context) {
	g.mu.Lock()
	idle := g.idle
	g.mu.Unlock()
	select {
	case <-idle:
		return
	default:
	}
	t := time.NewTimer(maxYield)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	case <-ctx.Done():
	}
}
