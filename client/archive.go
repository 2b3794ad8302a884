package client

import (
	"context"
	"net/http"
	"time"
)

// ArchiveRun is the body of POST /v1/archive.
type ArchiveRun struct {
	// Before is the last change before which terminal coupons and paid
	// or closed orders are archived; zero takes the server's
	// --archive-after.
	Before time.Time `json:"before,omitzero"`
	// DryRun counts what would move and moves nothing.
	DryRun bool `json:"dry_run,omitempty"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one.
	IdempotencyKey string `json:"-"`
}

// Archived is what an archive run moved and pruned, or would have in a
// dry run.
type Archived struct {
	Before    time.Time `json:"before"`
	DryRun    bool      `json:"dry_run"`
	Coupons   int64     `json:"coupons"`
	Orders    int64     `json:"orders"`
	Reminders int64     `json:"reminders"`
}

// Archive runs one archive run now and answers once it is done.
func (c *Client) Archive(ctx context.Context, run ArchiveRun) (Archived, error) {
	return decoded[Archived](ctx, c, call{method: http.MethodPost, path: "/v1/archive", in: run, key: run.IdempotencyKey})
}
