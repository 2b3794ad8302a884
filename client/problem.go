package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Problem is a refusal: the RFC 9457 problem document the API answered
// with, or one standing for an error answer that was not one (from a
// proxy, say), whose Slug is then empty.
type Problem struct {
	// Type is the problem's URI reference, "/problems/<slug>".
	Type string `json:"type"`
	// Slug is the stable name a client branches on (API.md), such as
	// "coupon-expired".
	Slug string `json:"-"`
	// Title is a short summary of the slug.
	Title string `json:"title"`
	// Status is the HTTP status.
	Status int `json:"status"`
	// Detail says what about this request was refused, naming the field
	// of an invalid one.
	Detail string `json:"detail"`
	// RequestID is the X-Request-Id lapse answered with: its log lines of
	// the request carry it.
	RequestID string `json:"request_id"`
}

// Error returns status, slug and detail.
func (p *Problem) Error() string {
	slug := p.Slug
	if slug == "" {
		slug = http.StatusText(p.Status)
	}
	return fmt.Sprintf("lapse: %d %s: %s", p.Status, slug, p.Detail)
}

// IsSlug reports whether err is, or wraps, a *Problem of slug.
func IsSlug(err error, slug string) bool {
	var p *Problem
	return errors.As(err, &p) && p.Slug == slug
}

// maxDetail bounds the detail of a Problem read from an answer that was
// not a problem document.
const maxDetail = 200

// newProblem reads the problem an error answer holds.
func newProblem(res *response) *Problem {
	p := &Problem{}
	if json.Unmarshal(res.body, p) == nil && strings.HasPrefix(p.Type, "/problems/") {
		p.Slug = strings.TrimPrefix(p.Type, "/problems/")
		p.Status = res.status
		return p
	}
	// Not a problem document (a proxy's page, say): its text is the
	// detail, and the request ID the header's, if lapse sent one.
	detail := strings.TrimSpace(string(res.body))
	if len(detail) > maxDetail {
		detail = detail[:maxDetail] + "…"
	}
	return &Problem{Title: http.StatusText(res.status), Status: res.status, Detail: detail, RequestID: res.header.Get("X-Request-Id")}
}
