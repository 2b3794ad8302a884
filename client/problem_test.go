package client

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
)

// FuzzProblem: whatever an error answer holds, it decodes to a *Problem
// of the answer's status, usable with errors.As, whose slug is set only
// from a problem document's type.
func FuzzProblem(f *testing.F) {
	f.Add(409, []byte(`{"type":"/problems/coupon-expired","title":"Coupon expired","status":409,"detail":"the coupon is at or past its expires_at"}`))
	f.Add(502, []byte(`<html>Bad Gateway</html>`))
	f.Add(422, []byte(`{"type":"/problems/invalid","status":200}`))
	f.Add(500, []byte(`{"type":42}`))
	f.Add(429, []byte(``))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		if status < 400 || status > 599 {
			t.Skip()
		}
		p := newProblem(&response{status: status, header: http.Header{}, body: body})
		var got *Problem
		if err := fmt.Errorf("wrapped: %w", p); !errors.As(err, &got) || got != p {
			t.Fatalf("errors.As: got %v", got)
		}
		if p.Status != status || (p.Slug != "" && p.Type != "/problems/"+p.Slug) || len(p.Error()) == 0 {
			t.Fatalf("answer %d %q: got %+v", status, body, p)
		}
	})
}

// TestProblemSlug: a problem document's slug is read from its type, its
// request ID from its request_id, and IsSlug branches on the slug.
func TestProblemSlug(t *testing.T) {
	p := newProblem(&response{status: 409, body: []byte(`{"type":"/problems/sold-out","title":"Sold out","status":409,"detail":"all issued","request_id":"r1"}`)})
	if *p != (Problem{Type: "/problems/sold-out", Slug: "sold-out", Title: "Sold out", Status: 409, Detail: "all issued", RequestID: "r1"}) {
		t.Fatalf("problem: got %+v", p)
	}
	if err := fmt.Errorf("claim: %w", p); !IsSlug(err, "sold-out") || IsSlug(err, "limit-reached") || IsSlug(errors.New("sold-out"), "sold-out") {
		t.Fatalf("IsSlug does not branch on the slug of %v", err)
	}
}
