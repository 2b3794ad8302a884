package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// NewTemplate is the body of POST /v1/templates.
type NewTemplate struct {
	Name     string   `json:"name"`
	Value    int64    `json:"value"`
	MinSpend int64    `json:"min_spend,omitempty"`
	Validity Validity `json:"validity"`
	// PerUserLimit and Total: 0 means unlimited.
	PerUserLimit int64      `json:"per_user_limit,omitempty"`
	Total        int64      `json:"total,omitempty"`
	Reminders    []Duration `json:"reminders,omitempty"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one.
	IdempotencyKey string `json:"-"`
}

// Validity is when a template's coupons may be claimed and how long they
// last: a coupon expires at min(claimed_at + Duration, EndsAt), so at
// least one of them is set. A zero StartsAt asks for now.
type Validity struct {
	StartsAt time.Time `json:"starts_at,omitzero"`
	EndsAt   time.Time `json:"ends_at,omitzero"`
	Duration Duration  `json:"duration,omitzero"`
}

// Template is a coupon template as the API writes it.
type Template struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	Value        int64      `json:"value"`
	MinSpend     int64      `json:"min_spend"`
	Validity     Validity   `json:"validity"`
	PerUserLimit int64      `json:"per_user_limit"`
	Total        int64      `json:"total"`
	Reminders    []Duration `json:"reminders"`
	CreatedAt    time.Time  `json:"created_at"`
	// ClosedAt is zero while the template is open.
	ClosedAt time.Time `json:"closed_at"`
	// Counts is set by Template, not in a list.
	Counts *Counts `json:"counts,omitempty"`
}

// Counts are a template's coupons by state.
type Counts struct {
	Unused  int64 `json:"unused"`
	Locked  int64 `json:"locked"`
	Used    int64 `json:"used"`
	Expired int64 `json:"expired"`
	Voided  int64 `json:"voided"`
}

// TemplateChange is the body of PATCH /v1/templates/{id}: a nil field is
// left as it is.
type TemplateChange struct {
	Name      *string     `json:"name,omitempty"`
	Value     *int64      `json:"value,omitempty"`
	Total     *int64      `json:"total,omitempty"`
	Reminders *[]Duration `json:"reminders,omitempty"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one.
	IdempotencyKey string `json:"-"`
}

// TemplatePage is one page of GET /v1/templates.
type TemplatePage struct {
	Templates []Template `json:"templates"`
	// Next is the cursor of the next page: the last template's ID, or
	// the cursor asked on an empty page.
	Next string `json:"next"`
}

// CreateTemplate creates a template.
func (c *Client) CreateTemplate(ctx context.Context, t NewTemplate) (Template, error) {
	return decoded[Template](ctx, c, call{method: http.MethodPost, path: "/v1/templates", in: t, key: t.IdempotencyKey})
}

// Template reads a template with its counts.
func (c *Client) Template(ctx context.Context, id string) (Template, error) {
	return decoded[Template](ctx, c, call{method: http.MethodGet, path: "/v1/templates/" + seg(id)})
}

// TemplateQuery is what a read of templates asks: which page.
type TemplateQuery struct {
	// After is the cursor: the ID of the last template seen, "" for the
	// first.
	After string
	// Limit is the most templates a page holds; 0 takes the server's
	// default.
	Limit int
	// Newest lists the newest first; by default the oldest come first.
	Newest bool
}

// TemplatePage reads one page of templates, by ID, as q asks.
func (c *Client) TemplatePage(ctx context.Context, q TemplateQuery) (TemplatePage, error) {
	v := pageQuery(q.After, q.Limit)
	if q.Newest {
		v.Set("order", "newest")
	}
	return decoded[TemplatePage](ctx, c, call{method: http.MethodGet, path: "/v1/templates", query: v})
}

// Templates iterates over the templates from q.After, reading pages of
// q.Limit until an empty one. It stops at the first error, yielding it.
func (c *Client) Templates(ctx context.Context, q TemplateQuery) iter.Seq2[Template, error] {
	return pages(func() ([]Template, error) {
		page, err := c.TemplatePage(ctx, q)
		q.After = page.Next
		return page.Templates, err
	})
}

// ChangeTemplate changes a template's name, value, total or reminders.
func (c *Client) ChangeTemplate(ctx context.Context, id string, ch TemplateChange) (Template, error) {
	return decoded[Template](ctx, c, call{method: http.MethodPatch, path: "/v1/templates/" + seg(id), in: ch, key: ch.IdempotencyKey})
}

// CloseTemplateParams is what a template's close asks.
type CloseTemplateParams struct {
	Reason         string `json:"reason,omitempty"`
	IdempotencyKey string `json:"-"`
}

// CloseTemplate closes a template to claims and issuance.
func (c *Client) CloseTemplate(ctx context.Context, id string, p CloseTemplateParams) (Template, error) {
	return decoded[Template](ctx, c, call{method: http.MethodPost, path: "/v1/templates/" + seg(id) + "/close", in: p, key: p.IdempotencyKey})
}

// pageQuery is ?after=&limit= of a page, each left out when zero.
func pageQuery(after string, limit int) url.Values {
	q := url.Values{}
	if after != "" {
		q.Set("after", after)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return q
}

// pages iterates over the items of the pages next reads, until an empty
// page or an error, which it yields.
func pages[T any](next func() ([]T, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			items, err := next()
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			if len(items) == 0 {
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
		}
	}
}
