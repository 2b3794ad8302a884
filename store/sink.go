package store

import "time"

// PruneParams are the inputs of PruneEvents.
type PruneParams struct {
	// Through is the newest cursor that may be pruned.
	Through int64
	// Before: only events written before it are pruned.
	Before time.Time
	// Limit bounds the records (of up to MaxRecord events) one call
	// deletes.
	Limit int
}

// ReplayDeadLettersParams are the inputs of ReplayDeadLetters.
type ReplayDeadLettersParams struct {
	Sink string
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}
