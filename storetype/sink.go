package storetype

import (
	"time"
)

// SinkState is what the store keeps of one sink of the outbox relay.
type SinkState struct {
	// Position is the feed cursor of the last event the sink is done with
	// (acknowledged, or dead-lettered): the relay resumes after it. A sink
	// never seen is at 0, the start of the feed.
	Position int64
	// Lag counts the feed's events after Position.
	Lag int64
	// DeadLetters counts the sink's dead letters, Queued of which wait for
	// redelivery.
	DeadLetters int64
	Queued      int64
}

// DeadLetter is an event a sink gave up on, kept whole (the feed may be
// pruned past it) until a replay delivers it.
type DeadLetter struct {
	Event    Event
	Attempts int
	// Error is the last delivery error.
	Error    string
	FailedAt time.Time
	// Queued: a replay asked for it to be delivered again.
	Queued bool
}

// AdvanceSinkParams are the inputs of AdvanceSink.
type AdvanceSinkParams struct {
	Sink string
	// Position is the new cursor; a position at or behind the stored one
	// changes nothing, so 0 keeps it.
	Position int64
	// Dead are stored as the sink's dead letters, not queued, each
	// replacing the sink's letter of the same event if there is one.
	Dead []DeadLetter
	// Replayed names, by Seq, dead letters of the sink a replay delivered:
	// they are removed.
	Replayed []int64
}

// DeadLettersParams are the inputs of DeadLetters: the sink's letters with
// Seq after After, at most Limit, only those queued for redelivery if
// QueuedOnly.
type DeadLettersParams struct {
	Sink       string
	QueuedOnly bool
	After      int64
	Limit      int
}
