package client

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
)

// Issued is the answer to a bulk issuance.
type Issued struct {
	Issued int64 `json:"issued"`
	// Refused lists the first refusals, in list order.
	Refused []Refusal `json:"refused"`
	// RefusedCount counts every refusal by reason.
	RefusedCount map[string]int64 `json:"refused_count"`
	// SoldOutFrom is, once the total ran out, the list position (from 0)
	// of the first user refused sold-out.
	SoldOutFrom *int64 `json:"sold_out_from,omitempty"`
}

// Refusal is one user a bulk issuance refused, with the problem slug why.
type Refusal struct {
	UserID string `json:"user_id"`
	Reason string `json:"reason"`
}

// IssueParams is what a bulk issuance of a list asks.
type IssueParams struct {
	UserIDs []string `json:"user_ids"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one.
	IdempotencyKey string `json:"-"`
}

// Issue issues a coupon of the template to each of p's users, under its
// rules. Like IssueStream it is bounded by ctx and the server's issuance
// timeout, not by the client's per-request timeout.
func (c *Client) Issue(ctx context.Context, templateID string, p IssueParams) (Issued, error) {
	return decoded[Issued](ctx, c, call{method: http.MethodPost, path: issuePath(templateID), in: p, key: p.IdempotencyKey, untimed: true})
}

// IssueStreamParams is what a streamed bulk issuance asks.
type IssueStreamParams struct {
	// Users yields the users, each issued a coupon in turn; it is
	// iterated once for each attempt the call makes.
	Users iter.Seq[string]
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one.
	IdempotencyKey string
}

// IssueStream is Issue for lists of millions: it streams p.Users to the
// server as NDJSON lines, holding none of them in memory, and is bounded
// by ctx and the server's issuance timeout, not by the client's
// per-request timeout. The server refuses the whole list if one user in
// it is invalid, before issuing any.
func (c *Client) IssueStream(ctx context.Context, templateID string, p IssueStreamParams) (Issued, error) {
	stream := func() io.Reader {
		pr, pw := io.Pipe()
		go func() {
			enc := json.NewEncoder(pw)
			for u := range p.Users {
				if err := enc.Encode(issueLine{u}); err != nil {
					// The request is over: the transport closed pr.
					return
				}
			}
			pw.Close()
		}()
		return pr
	}
	return decoded[Issued](ctx, c, call{method: http.MethodPost, path: issuePath(templateID), stream: stream, key: p.IdempotencyKey, untimed: true})
}

// issueLine is one line of an NDJSON issuance.
type issueLine struct {
	UserID string `json:"user_id"`
}

// issuePath is the path of a template's issuance.
func issuePath(templateID string) string { return "/v1/templates/" + seg(templateID) + "/issue" }
