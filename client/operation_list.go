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

// OperationPage reads up to limit operations after the cursor after
// ("" for the newest), newest first, those in state if it is set
// (running, done or cancelled); limit 0 takes the server's default.
func (c *Client) OperationPage(ctx context.Context, state, after string, limit int) (OperationPage, error) {
	q := pageQuery(after, limit)
	if state != "" {
		q.Set("state", state)
	}
	return decoded[OperationPage](ctx, c, call{method: http.MethodGet, path: "/v1/operations", query: q})
}

// CancelOperation stops a running operation after its batch in flight
// and returns it, cancelled: what it worked stays worked. Cancelling it
// again returns it as it is; a done one is refused, invalid-state.
func (c *Client) CancelOperation(ctx context.Context, id string) (Operation, error) {
	return decoded[Operation](ctx, c, call{method: http.MethodPost, path: "/v1/operations/" + seg(id) + "/cancel"})
}
