package client

import (
	"context"
	"net/http"
)

// Healthz checks that the server's process is up.
func (c *Client) Healthz(ctx context.Context) error {
	return c.do(ctx, call{method: http.MethodGet, path: "/healthz"})
}

// Readyz checks that the server is ready: its store reachable and
// migrated, its engine firing. A server that is not is a *Problem of slug
// not-ready (after the retries a 503 gets).
func (c *Client) Readyz(ctx context.Context) error {
	return c.do(ctx, call{method: http.MethodGet, path: "/readyz"})
}
