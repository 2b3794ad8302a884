// Package clienttest helps tests drive a lapse server through its Go
// client.
package clienttest

import (
	"iter"
	"testing"

	"github.com/lapsehq/lapse/client"
)

// New returns a client of the server at baseURL for t, which fails t if
// baseURL is not one. It makes one attempt a call unless opts set a
// retry: a test sees every answer as the server gave it.
func New(t testing.TB, baseURL string, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.New(baseURL, append([]client.Option{client.WithRetry(client.Retry{Attempts: 1})}, opts...)...)
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	return c
}

// Result is what a call returned, to check with On.
type Result[T any] struct {
	v   T
	err error
}

// Must holds a call's results: clienttest.Must(c.Coupon(ctx, id)).On(t).
func Must[T any](v T, err error) Result[T] { return Result[T]{v, err} }

// On fails t if the call failed, else returns what it returned.
func (r Result[T]) On(t testing.TB) T {
	t.Helper()
	if r.err != nil {
		t.Fatalf("%v", r.err)
	}
	return r.v
}

// All collects what seq yields, failing t at its first error:
// clienttest.All(t, c.Wallet(ctx, user, client.WalletQuery{})).
func All[T any](t testing.TB, seq iter.Seq2[T, error]) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatalf("%v", err)
		}
		out = append(out, v)
	}
	return out
}
