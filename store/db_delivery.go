package store

import (
	"cmp"
	"context"
	"fmt"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/storetype"
)

// Events returns the outbox after a cursor, in commit order, read out of
// its records. A cursor past the feed's end, which no page answered, is
// refused as input naming the end (field after): the page after it would
// be empty however long a client waits. Only an empty page asks, with one
// row read after the page's, so no cursor a page answered is refused,
// whatever commits meanwhile.
func (db *DB) Events(ctx context.Context, p EventsParams) ([]storetype.Event, error) {
	pg, err := read(ctx, db, func(x driver.Executor) (*page, error) {
		pg := &page{p: p, events: []storetype.Event{}}
		err := x.Records(ctx, driver.RecordsParams{After: p.After, Limit: p.Limit, Each: pg.add})
		return pg, cmp.Or(err, pg.err)
	})
	if err != nil {
		return nil, err
	}
	if len(pg.events) == 0 && p.After > 0 {
		end, err := db.FeedEnd(ctx)
		if err != nil {
			return nil, err
		}
		if p.After > end {
			return nil, input.Invalid("after", fmt.Sprintf("is past the end of the feed, %d: use a next that a page answered", end))
		}
	}
	return pg.events, nil
}

// FeedEnd reads the feed's head, the last position handed out.
func (db *DB) FeedEnd(ctx context.Context) (int64, error) {
	return read(ctx, db, func(x driver.Executor) (int64, error) { return x.FeedEnd(ctx) })
}

// PruneEvents deletes from the front of the feed up to p.Limit records
// whose events are all at or before p.Through and older than p.Before.
func (db *DB) PruneEvents(ctx context.Context, p PruneParams) (int64, error) {
	return background(ctx, db, func(t *txn) (int64, error) {
		front, err := t.FrontRecords(t.ctx, p.Limit)
		if err != nil {
			return 0, err
		}
		through := int64(-1)
		for _, r := range front {
			if r.Last > p.Through || !r.Time.Before(p.Before) {
				break
			}
			through = r.Last
		}
		if through < 0 {
			return 0, nil
		}
		return t.PruneEvents(t.ctx, through)
	})
}

// SinkState reads a sink's position, lag and dead-letter counts.
func (db *DB) SinkState(ctx context.Context, sink string) (storetype.SinkState, error) {
	return read(ctx, db, func(x driver.Executor) (storetype.SinkState, error) { return x.SinkState(ctx, sink) })
}

// AdvanceSink stores a sink's progress in one transaction.
func (db *DB) AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error {
	_, err := background(ctx, db, func(t *txn) (struct{}, error) { return struct{}{}, t.AdvanceSink(t.ctx, p) })
	return err
}

// DeadLetters lists a sink's dead letters in feed order.
func (db *DB) DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error) {
	return read(ctx, db, func(x driver.Executor) ([]storetype.DeadLetter, error) { return x.DeadLetters(ctx, p) })
}

// ReplayDeadLetters queues every dead letter of p.Sink for redelivery.
func (db *DB) ReplayDeadLetters(ctx context.Context, p ReplayDeadLettersParams) (int64, error) {
	return mutate(ctx, db, p.Idem, func(t *txn) (int64, error) { return t.ReplayDeadLetters(t.ctx, p.Sink) })
}
