package client

import (
	"context"
	"net/http"
)

// NewestTemplatePage reads up to limit templates after the cursor after
// newest first ("" for the newest); limit 0 takes the server's default.
func (c *Client) NewestTemplatePage(ctx context.Context, after string, limit int) (TemplatePage, error) {
	q := pageQuery(after, limit)
	q.Set("order", "newest")
	return decoded[TemplatePage](ctx, c, call{method: http.MethodGet, path: "/v1/templates", query: q})
}
