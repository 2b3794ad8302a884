package client

import (
	"context"
	"net/http"
)

// Latest is the cursor of the feed's head, its newest event, as
// EventQuery.Before takes it.
const Latest = "latest"

// Cursor returns the cursor of the feed's head, its newest event: where to
// start to read only what comes next. The server reads it in one row,
// however long the feed.
func (c *Client) Cursor(ctx context.Context) (string, error) {
	page, err := decoded[EventPage](ctx, c, call{method: http.MethodGet, path: "/v1/events", query: pageQuery(Latest, 1)})
	return page.Next, err
}
