package store

import "context"

// Events returns the outbox after a cursor, in commit order.
func (db *DB) Events(ctx context.Context, p EventsParams) ([]Event, error) {
	return db.d.Events(ctx, p)
}

// PruneEvents deletes up to p.Limit of the oldest events, none after
// p.Through.
func (db *DB) PruneEvents(ctx context.Context, p PruneParams) (int64, error) {
	return background(ctx, db, func(t *txn) (int64, error) { return t.PruneEvents(p) })
}

// SinkState reads a sink's position, lag and dead-letter counts.
func (db *DB) SinkState(ctx context.Context, sink string) (SinkState, error) {
	return db.d.SinkState(ctx, sink)
}

// AdvanceSink stores a sink's progress in one transaction.
func (db *DB) AdvanceSink(ctx context.Context, p AdvanceSinkParams) error {
	_, err := background(ctx, db, func(t *txn) (struct{}, error) { return struct{}{}, t.AdvanceSink(p) })
	return err
}

// DeadLetters lists a sink's dead letters in feed order.
func (db *DB) DeadLetters(ctx context.Context, p DeadLettersParams) ([]DeadLetter, error) {
	return db.d.DeadLetters(ctx, p)
}

// ReplayDeadLetters queues every dead letter of p.Sink for redelivery.
func (db *DB) ReplayDeadLetters(ctx context.Context, p ReplayDeadLettersParams) (int64, error) {
	return mutate(ctx, db, p.Idem, func(t *txn) (int64, error) { return t.ReplayDeadLetters(p.Sink) })
}
