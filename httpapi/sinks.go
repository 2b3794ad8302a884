package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Relay is the outbox relay as the API reports and replays it.
type Relay interface {
	// Status reports every configured sink.
	Status(ctx context.Context) ([]outbox.SinkStatus, error)
	// Replay queues a sink's dead letters for redelivery; an unknown name
	// is store.ErrNotFound.
	Replay(ctx context.Context, name string, idem *store.Idempotency) (int64, error)
}

// sinkJSON is a sink as GET /v1/sinks writes it. Position is a cursor of
// the event feed, as its next is.
type sinkJSON struct {
	Name        string  `json:"name"`
	Type        string  `json:"type"`
	Position    string  `json:"position"`
	Lag         int64   `json:"lag"`
	Failures    int64   `json:"failures"`
	DeadLetters int64   `json:"dead_letters"`
	Queued      int64   `json:"queued"`
	LastError   *string `json:"last_error"`
}

// sinks serves GET /v1/sinks.
func (s *server) sinks(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Sinks []sinkJSON `json:"sinks"`
	}{Sinks: []sinkJSON{}}
	if s.relay != nil {
		all, err := s.relay.Status(r.Context())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, st := range all {
			out.Sinks = append(out.Sinks, sinkJSON{
				Name: st.Name, Type: st.Type, Position: strconv.FormatInt(st.Position, 10), Lag: st.Lag,
				Failures: st.Failures, DeadLetters: st.DeadLetters, Queued: st.Queued, LastError: optionalString(st.LastError),
			})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// replayJSON answers POST /v1/sinks/{name}/replay: how many dead letters
// now wait for redelivery.
type replayJSON struct {
	Name   string `json:"name"`
	Queued int64  `json:"queued"`
}

// replay serves POST /v1/sinks/{name}/replay: 202, delivery happens after
// the answer. The body, if any, is an empty object.
func (s *server) replay(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	mutate(s, w, r, http.StatusAccepted, func(ctx context.Context, idem *store.Idempotency, body []byte, now time.Time) (int64, error) {
		if _, err := decodeJSON[struct{}](body); err != nil {
			return 0, err
		}
		if s.relay == nil {
			return 0, storetype.ErrNotFound
		}
		n, err := s.relay.Replay(ctx, name, idem)
		if err == nil {
			// An operation leaves no event: the log records who ran it.
			s.log.InfoContext(ctx, "httpapi: dead letters queued for redelivery", slog.String("sink", name),
				slog.Int64("queued", n), slog.String("actor", store.Actor(ctx)))
		}
		return n, err
	}, func(n int64, _ time.Time) replayJSON { return replayJSON{Name: name, Queued: n} })
}
