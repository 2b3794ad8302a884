package httpapi

import (
	"net/http"
	"time"

	"github.com/lapsehq/lapse/store"
)

// driftJSON is one drift as GET and POST /v1/reconcile write it.
type driftJSON struct {
	Check      string `json:"check"`
	Subject    string `json:"subject"`
	Detail     string `json:"detail"`
	Expected   int64  `json:"expected"`
	Actual     int64  `json:"actual"`
	Repairable bool   `json:"repairable"`
	Repaired   bool   `json:"repaired"`
}

// reconcileJSON answers GET and POST /v1/reconcile.
type reconcileJSON struct {
	CheckedAt string           `json:"checked_at"`
	Drift     []driftJSON      `json:"drift"`
	Counts    map[string]int64 `json:"counts"`
	Repaired  int64            `json:"repaired"`
}

// reconcileView renders a reconciliation.
func reconcileView(rec store.Reconciliation) reconcileJSON {
	out := reconcileJSON{CheckedAt: formatTime(rec.CheckedAt), Drift: make([]driftJSON, 0, len(rec.Drift)),
		Counts: rec.Counts, Repaired: rec.Repaired}
	for _, d := range rec.Drift {
		out.Drift = append(out.Drift, driftJSON(d))
	}
	return out
}

// decodeReconcile returns whether POST /v1/reconcile asks for repairs:
// {"repair": true}; the body is optional.
func decodeReconcile(body []byte) (repair bool, err error) {
	req, err := decodeJSON[struct {
		Repair bool `json:"repair"`
	}](body)
	return req.Repair, err
}

// getReconcile serves GET /v1/reconcile: the checks, repairing nothing.
func (s *server) getReconcile(w http.ResponseWriter, r *http.Request) {
	s.reconcile(w, r, false, s.now())
}

// postReconcile serves POST /v1/reconcile. It checks an Idempotency-Key
// as every POST does, but keeps no answer under it: a repair run again
// finds nothing left to repair.
func (s *server) postReconcile(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	body, err := readBody(w, r)
	if err == nil {
		_, err = idempotencyKey(r)
	}
	if err == nil {
		var repair bool
		if repair, err = decodeReconcile(body); err == nil {
			s.reconcile(w, r, repair, now)
			return
		}
	}
	s.fail(w, r, err)
}

// reconcile runs the checks at now, repairing if repair, and answers
// what they found.
func (s *server) reconcile(w http.ResponseWriter, r *http.Request, repair bool, now time.Time) {
	rec, err := s.store.Reconcile(r.Context(), store.ReconcileParams{Repair: repair, Now: now})
	s.writeResult(w, r, err, func() any { return reconcileView(rec) })
}
