package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/lapsehq/lapse/store"
)

// Page sizes of the event feed.
const (
	defaultEventsLimit = 100
	maxEventsLimit     = 1000
)

// parseEventsQuery reads ?after=<cursor>&limit=<n>. The cursor is the
// decimal Seq of the last event a client has seen ("0": none).
func parseEventsQuery(q url.Values) (store.EventsParams, error) {
	p := store.EventsParams{Limit: defaultEventsLimit}
	if q.Has("after") {
		after, err := strconv.ParseInt(q.Get("after"), 10, 64)
		if err != nil || after < 0 {
			return p, invalid("after", "must be a cursor from a previous page's next")
		}
		p.After = after
	}
	if q.Has("limit") {
		limit, err := strconv.Atoi(q.Get("limit"))
		if err != nil || limit < 1 || limit > maxEventsLimit {
			return p, invalid("limit", fmt.Sprintf("must be an integer from 1 to %d", maxEventsLimit))
		}
		p.Limit = limit
	}
	return p, nil
}

type eventJSON struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Subject string          `json:"subject"`
	Time    string          `json:"time"`
	Data    json.RawMessage `json:"data"`
}

type eventsJSON struct {
	Events []eventJSON `json:"events"`
	Next   string      `json:"next"`
}

// events serves GET /v1/events.
func (s *server) events(w http.ResponseWriter, r *http.Request) {
	p, err := parseEventsQuery(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	evs, err := s.store.Events(r.Context(), p)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	page := eventsJSON{Events: make([]eventJSON, 0, len(evs)), Next: strconv.FormatInt(p.After, 10)}
	for _, e := range evs {
		data := e.Data
		if len(data) == 0 {
			data = json.RawMessage("{}")
		}
		if !json.Valid(data) {
			s.fail(w, r, fmt.Errorf("event %d: data is not JSON", e.Seq))
			return
		}
		page.Events = append(page.Events, eventJSON{ID: e.ID, Type: e.Type, Subject: e.Subject, Time: formatTime(e.Time), Data: data})
		page.Next = strconv.FormatInt(e.Seq, 10)
	}
	writeJSON(w, http.StatusOK, page)
}
