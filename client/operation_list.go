package client

import (
	"context"
	"net/http"
)

// OperationPage is one page of the list of operations, newest first.
type OperationPage struct {
	Operations []Operation `json:"operations"`
	// Next is the cursor of the next page: the last operation's ID, or
	// the cursor asked on an empty page.
	Next string `json:"next"`
}

// OperationQuery is what a read of the list of operations asks.
type OperationQuery struct {
	// State, if set, keeps only the operations in it (OperationRunning,
	// OperationDone, OperationCancelled).
	State string
	// After is the cursor: the ID of the last operation seen, "" for the
	// newest.
	After string
	// Limit is the most operations a page holds; 0 takes the server's
	// default.
	Limit int
}

// OperationPage reads one page of operations, newest first, as q asks.
func (c *Client) OperationPage(ctx context.Context, q OperationQuery) (OperationPage, error) {
	v := pageQuery(q.After, q.Limit)
	if q.State != "" {
		v.Set("state", q.State)
	}
	return decoded[OperationPage](ctx, c, call{method: http.MethodGet, path: "/v1/operations", query: v})
}

// CancelOperation stops a running operation after its batch in flight
// and returns it, cancelled: what it worked stays worked. Cancelling it
// again returns it as it is; a done one is refused, invalid-state.
func (c *Client) CancelOperation(ctx context.Context, id string) (Operation, error) {
	return decoded[Operation](ctx, c, call{method: http.MethodPost, path: "/v1/operations/" + seg(id) + "/cancel"})
}
