package client

import (
	"context"
	"net/http"
)

// Sink is one sink of the outbox relay and how far it is.
type Sink struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Position is the feed cursor of the last event delivered.
	Position    string `json:"position"`
	Lag         int64  `json:"lag"`
	Failures    int64  `json:"failures"`
	DeadLetters int64  `json:"dead_letters"`
	// Queued counts dead letters waiting for redelivery.
	Queued    int64  `json:"queued"`
	LastError string `json:"last_error"`
}

// Replayed answers a replay: how many dead letters of the sink now wait
// for redelivery.
type Replayed struct {
	Name   string `json:"name"`
	Queued int64  `json:"queued"`
}

// Sinks reports every sink.
func (c *Client) Sinks(ctx context.Context) ([]Sink, error) {
	var out struct {
		Sinks []Sink `json:"sinks"`
	}
	err := c.do(ctx, call{method: http.MethodGet, path: "/v1/sinks", out: &out})
	return out.Sinks, err
}

// Replay queues a sink's dead letters for redelivery, which happens after
// the answer.
func (c *Client) Replay(ctx context.Context, sink string) (Replayed, error) {
	return decoded[Replayed](ctx, c, call{method: http.MethodPost, path: "/v1/sinks/" + seg(sink) + "/replay", in: struct{}{}})
}
