package sqlite

import (
	"context"
	"database/sql"
	"sync/atomic"
	"time"
)

// checkpointEvery is how often the checkpointer copies what was committed
// to the WAL into the database file.
const checkpointEvery = 200 * time.Millisecond

// walBackstopPages is the WAL size at which the writer checkpoints by
// itself, should the checkpointer fail for good (SQLite's default is
// 1000). It is far out of the way on purpose: while writes go on without
// a pause (a storm, a bulk issuance) and readers keep taking snapshots,
// SQLite cannot rewind the WAL, so it stays above any threshold, and from
// there on every commit ran a checkpoint of its own (commits of 40-180ms
// under load, users queued behind them). The checkpointer keeps the
// frames backfilled; the WAL rewinds at the first pause in writes. A
// 1 M storm drained in batches of 20-1000 grew it to 1.9 GB; at 1 GiB,
// the commit that crossed held the writer 140-280 ms, users' locks
// queued behind it. So the backstop is 4 GiB, which a storm's WAL must
// have room for on disk until shrinkAfter truncates it.
const walBackstopPages = 1 << 20 // 4 GiB

// shrinkAfter is how long without a commit the checkpointer waits before
// it truncates the WAL file. The writer never truncates it: with
// journal_size_limit set, the first commit after each rewind truncated
// the file to the limit, and under a paced storm (rewinds every few
// batches, the WAL hundreds of MiB between them) those commits held the
// writer for 100-300 ms, users' locks queued behind them. So the file
// keeps the size it grew to while writes go on, and shrinks once they
// pause.
const shrinkAfter = 5 * time.Second

// truncateWait is how long a truncation waits for the writer and the
// readers (it holds the writer meanwhile) before it gives up until the
// next tick: the checkpointer's busy timeout, which only a truncation
// heeds. Users' writes wait no longer than that and the truncation
// behind it; with the writers' 10 s a slow reader could have held them
// up that long.
const truncateWait = 50 * time.Millisecond

// The checkpoint modes the checkpointer runs.
const (
	// passive copies committed frames into the database without waiting
	// for the writer or the readers.
	passive = "PASSIVE"
	// truncate copies them all, waiting up to truncateWait for the
	// writer and the readers, and truncates the WAL file to zero bytes.
	truncate = "TRUNCATE"
)

// checkpointer copies committed WAL frames into the database from a
// connection of its own, with a passive checkpoint, which never waits for
// the writer or the readers. Left to SQLite, the checkpoint runs inside
// the commit that crosses the WAL threshold, copying and syncing while
// that commit holds the one writer, and every user's write queued behind
// it waits for it. A failed checkpoint is retried on the next tick; if
// they keep failing the WAL grows to walBackstopPages and the writer
// checkpoints after all. Once no commit came for shrinkAfter, it
// truncates the WAL file, once.
type checkpointer struct {
	checkpoint func(ctx context.Context, mode string) error
	close      func() error
	dirty      atomic.Bool
	cancel     context.CancelFunc
	done       chan struct{}
}

// startCheckpointer starts checkpointing the database of dsn until stop.
func startCheckpointer(dsn string) (*checkpointer, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return newCheckpointer(func(ctx context.Context, mode string) error {
		_, err := db.ExecContext(ctx, "PRAGMA wal_checkpoint("+mode+")")
		return err
	}, db.Close), nil
}

// newCheckpointer starts calling checkpoint after commits until stop,
// which then calls close.
func newCheckpointer(checkpoint func(context.Context, string) error, close func() error) *checkpointer {
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{checkpoint: checkpoint, close: close, cancel: cancel, done: make(chan struct{})}
	go c.run(ctx)
	return c
}

// committed tells the checkpointer the WAL has new frames.
func (c *checkpointer) committed() { c.dirty.Store(true) }

func (c *checkpointer) run(ctx context.Context) {
	defer close(c.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	var (
		quiet time.Duration // since the last tick that found a commit
		owed  bool          // a commit came since the last truncation
	)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if c.dirty.Swap(false) {
			quiet, owed = 0, true
			if c.checkpoint(ctx, passive) != nil {
				c.dirty.Store(true)
			}
			continue
		}
		if quiet += checkpointEvery; owed && quiet >= shrinkAfter {
			owed = c.checkpoint(ctx, truncate) != nil
		}
	}
}

// stop stops checkpointing and closes the connection.
func (c *checkpointer) stop() error {
	c.cancel()
	<-c.done
	return c.close()
}
