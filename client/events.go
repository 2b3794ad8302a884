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
	// Prev, on a page before a cursor (EventsBefore), is the cursor the
	// page before it ends at: "0" when none is stored before it.
	Prev string `json:"prev"`
}

// EventFilter keeps only the events of Type about Subject, each if set.
type EventFilter struct {
	Type    string
	Subject string
}

// query is ?type=&subject= of f with the page's ?after=&limit=.
func (f EventFilter) query(after string, limit int) url.Values {
	q := pageQuery(after, limit)
	if f.Type != "" {
		q.Set("type", f.Type)
	}
	if f.Subject != "" {
		q.Set("subject", f.Subject)
	}
	return q
}

// Events reads up to limit events after the cursor after ("" or "0": from
// the start); limit 0 takes the server's default.
func (c *Client) Events(ctx context.Context, after string, limit int) (EventPage, error) {
	return c.EventsOf(ctx, EventFilter{}, after, limit)
}

// EventsOf is Events keeping only the events f passes: the server
// filters the page it read, so a page may hold none while more follow;
// its Next is past every event read.
func (c *Client) EventsOf(ctx context.Context, f EventFilter, after string, limit int) (EventPage, error) {
	return decoded[EventPage](ctx, c, call{method: http.MethodGet, path: "/v1/events", query: f.query(after, limit)})
}

// Feed iterates over the events after the cursor after ("" for all), in
// feed order, reading pages of limit (0: the server's default) until the
// end of the feed for now. It stops at the first error, yielding it.
func (c *Client) Feed(ctx context.Context, after string, limit int) iter.Seq2[Event, error] {
	return c.FeedOf(ctx, EventFilter{}, after, limit)
}

// FeedOf is Feed keeping only the events f passes. It reads until a page
// moves the cursor no further.
func (c *Client) FeedOf(ctx context.Context, f EventFilter, after string, limit int) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for {
			page, err := c.EventsOf(ctx, f, after, limit)
			if err != nil {
				yield(Event{}, err)
				return
			}
			for _, e := range page.Events {
				if !yield(e, nil) {
					return
				}
			}
			if len(page.Events) == 0 && page.Next == after || page.Next == "" {
				return
			}
			after = page.Next
		}
	}
}
