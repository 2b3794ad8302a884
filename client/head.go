package client

import (
	"context"
	"net/http"
)

// Latest is the cursor of the feed's head, its newest event, as
// EventsBefore takes it.
const Latest = "latest"

// Cursor returns the cursor of the feed's head, its newest event: where to
// start to read only what comes next. The server reads it in one row,
// however long the feed.
func (c *Client) Cursor(ctx context.Context) (string, error) {
	page, err := decoded[EventPage](ctx, c, call{method: http.MethodGet, path: "/v1/events", query: pageQuery(Latest, 1)})
	return page.Next, err
}

// EventsBefore reads the page of limit positions of the feed that ends
// at the cursor before (Latest: the feed's head), keeping the events f
// passes, in feed order; limit 0 takes the server's default. Its Prev is
// the before of the page before it ("0": none is stored), its Next the
// cursor to follow the feed from. It reads in constant time wherever
// the page is.
func (c *Client) EventsBefore(ctx context.Context, f EventFilter, before string, limit int) (EventPage, error) {
	q := f.query("", limit)
	q.Set("before", before)
	return decoded[EventPage](ctx, c, call{method: http.MethodGet, path: "/v1/events", query: q})
}
