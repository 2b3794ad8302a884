package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Page sizes of the event feed.
const (
	defaultEventsLimit = 100
	maxEventsLimit     = 1000
	// maxEventsPage bounds a page in bytes as well: events whose data is
	// large end it early, though it always holds one event. The store's
	// read stops once the events' data reach it, so a page never holds
	// more than it and one event more in memory.
	maxEventsPage = 1 << 20
)

// pageTail is the most a page takes after its last event.
const pageTail = len(`],"next":"9223372036854775807"}`)

// eventsQuery is what GET /v1/events asks: a page of the feed, and the
// filters its events are to pass.
type eventsQuery struct {
	store.EventsParams
	// Backward asks for the page that ends at Before: the events at or
	// before that cursor, in place of those after After.
	Backward bool
	Before   int64
	// Latest: the cursor given (after or before) is "latest", the feed's
	// head.
	Latest bool
	// Type and Subject, if set, keep only the events of that type, about
	// that subject.
	Type, Subject string
}

// keeps reports whether e passes q's filters.
func (q eventsQuery) keeps(e storetype.Event) bool {
	return (q.Type == "" || e.Type == q.Type) && (q.Subject == "" || e.Subject == q.Subject)
}

// latest names the feed's head as a cursor: the position of the last
// event it holds.
const latest = "latest"

// parseEventsQuery reads ?after=<cursor>|before=<cursor>&limit=<n>&
// type=<t>&subject=<id>. A cursor is the decimal Seq of the last event a
// client has seen ("0", or none, or empty as in every list: see
// parseAfterID), or "latest", the feed's head; after and before exclude
// each other. A filter present is an ID.
func parseEventsQuery(q url.Values) (eventsQuery, error) {
	var p eventsQuery
	cursor, name := &p.After, "after"
	if q.Has("before") {
		if q.Has("after") {
			return p, invalid("before", "give after or before, not both")
		}
		cursor, name, p.Backward = &p.Before, "before", true
	}
	switch v := q.Get(name); v {
	case "":
	case latest:
		p.Latest = true
	default:
		c, err := strconv.ParseInt(v, 10, 64)
		if err != nil || c < 0 {
			return p, invalid(name, "must be latest or a cursor from a page's next or prev")
		}
		*cursor = c
	}
	for _, f := range []struct {
		name string
		to   *string
	}{{"type", &p.Type}, {"subject", &p.Subject}} {
		if q.Has(f.name) {
			if err := input.ID(f.name, q.Get(f.name)); err != nil {
				return p, err
			}
			*f.to = q.Get(f.name)
		}
	}
	limit, err := parseLimit(q, defaultEventsLimit, maxEventsLimit)
	p.Limit = limit
	return p, err
}

// parseAfterID reads the cursor of a list ordered by ID, ?after=<id>: the
// ID of the last item a client has seen. None, or empty, starts at the
// first, in every list (the feed's cursor too): an empty page at the start
// of a list answers next "", which a client that follows it sends back.
func parseAfterID(q url.Values) (string, error) {
	after := q.Get("after")
	if after == "" {
		return "", nil
	}
	return after, input.ID("after", after)
}

// parseLimit reads a page's ?limit=<n>, 1 to max; def if absent.
func parseLimit(q url.Values, def, max int) (int, error) {
	if !q.Has("limit") {
		return def, nil
	}
	limit, err := strconv.Atoi(q.Get("limit"))
	if err != nil || limit < 1 || limit > max {
		return def, invalid("limit", fmt.Sprintf("must be an integer from 1 to %d", max))
	}
	return limit, nil
}

type eventJSON struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Subject string          `json:"subject"`
	Time    string          `json:"time"`
	Data    json.RawMessage `json:"data"`
}

// events serves GET /v1/events: up to the limit asked, the events after
// the cursor, in feed order, as many as fit in maxEventsPage bytes (at
// least one); next is the cursor of the last one, so a client following it
// skips none. Filters (type, subject) apply to the page read: it holds
// those of its events that pass them, perhaps none, and next is the
// cursor of the last event read, passing or not. After "latest" is after
// the feed's head, one row read however long the feed; a page before a
// cursor is eventsBefore's.
func (s *server) events(w http.ResponseWriter, r *http.Request) {
	p, err := parseEventsQuery(r.URL.Query())
	if err == nil && p.Latest {
		var end int64
		end, err = s.store.FeedEnd(r.Context())
		p.After, p.Before = end, end
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if p.Backward {
		s.eventsBefore(w, r, p)
		return
	}
	evs, err := s.store.Events(r.Context(), store.EventsParams{After: p.After, Limit: p.Limit, MaxBytes: maxEventsPage})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var page bytes.Buffer
	page.WriteString(`{"events":[`)
	next, kept := p.After, 0
	for _, e := range evs {
		if !p.keeps(e) {
			next = e.Seq
			continue
		}
		b, err := encodeEvent(e)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if kept > 0 && page.Len()+1+len(b)+pageTail > maxEventsPage {
			break // the next page starts with it
		}
		if kept > 0 {
			page.WriteByte(',')
		}
		page.Write(b)
		next, kept = e.Seq, kept+1
	}
	fmt.Fprintf(&page, `],"next":"%d"}`, next)
	write(w, http.StatusOK, "application/json", page.Bytes())
}

// encodeEvent writes e as the feed shows it; data it lacks is {}.
func encodeEvent(e storetype.Event) ([]byte, error) {
	data := e.Data
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	b, err := json.Marshal(eventJSON{ID: e.ID, Type: e.Type, Subject: e.Subject, Time: formatTime(e.Time), Data: data})
	if err != nil {
		return nil, fmt.Errorf("event %d: data is not JSON: %w", e.Seq, err)
	}
	return b, nil
}
