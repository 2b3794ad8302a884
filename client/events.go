package client

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"time"
)

// Event is one entry of the event feed.
type Event struct {
	// ID is the event's idempotency key.
	ID string `json:"id"`
	// Type is such as coupon.expired or order.closed.
	Type string `json:"type"`
	// Subject is the ID of the entity the event is about.
	Subject string          `json:"subject"`
	Time    time.Time       `json:"time"`
	Data    json.RawMessage `json:"data"`
}

// EventPage is one page of the feed.
type EventPage struct {
	Events []Event `json:"events"`
	// Next is the cursor after the page's last event, or the one asked
	// on an empty page.
	Next string `json:"next"`
	// Prev, on a page before a cursor (EventQuery.Before), is the cursor
	// the page before it ends at: "0" when none is stored before it.
	Prev string `json:"prev"`
}

// EventQuery is what a read of the feed asks: which events, and from
// where.
type EventQuery struct {
	// Type and Subject, each if set, keep only the events of that type
	// (an Event… constant) or about that subject.
	Type    string
	Subject string
	// After is the cursor: "" or "0" for the start of the feed.
	After string
	// Before, if set, asks Events for the page of Limit positions that
	// ends at that cursor (Latest: the feed's head) instead, read in
	// constant time wherever it is. Feed ignores it.
	Before string
	// Limit is the most events a page reads; 0 takes the server's
	// default.
	Limit int
}

// query is ?type=&subject=&after=&limit= of q.
func (q EventQuery) query() url.Values {
	v := pageQuery(q.After, q.Limit)
	if q.Before != "" {
		v.Set("before", q.Before)
	}
	if q.Type != "" {
		v.Set("type", q.Type)
	}
	if q.Subject != "" {
		v.Set("subject", q.Subject)
	}
	return v
}

// Events reads one page of the feed, as q asks. With a Type or Subject,
// the server filters the page it read, so a page may hold none while more
// follow; its Next is past every event read.
func (c *Client) Events(ctx context.Context, q EventQuery) (EventPage, error) {
	return decoded[EventPage](ctx, c, call{method: http.MethodGet, path: "/v1/events", query: q.query()})
}

// Feed iterates over the events q asks for from q.After, in feed order,
// reading pages of q.Limit until a page moves the cursor no further: the
// end of the feed for now. It stops at the first error, yielding it.
func (c *Client) Feed(ctx context.Context, q EventQuery) iter.Seq2[Event, error] {
	q.Before = ""
	return func(yield func(Event, error) bool) {
		for {
			page, err := c.Events(ctx, q)
			if err != nil {
				yield(Event{}, err)
				return
			}
			for _, e := range page.Events {
				if !yield(e, nil) {
					return
				}
			}
			if len(page.Events) == 0 && page.Next == q.After || page.Next == "" {
				return
			}
			q.After = page.Next
		}
	}
}
