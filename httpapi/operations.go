package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// templateOperationRequest is the body of POST /v1/templates/{id}/void
// and /extend: a void's reason; an extension's expires_at or by.
type templateOperationRequest struct {
	Reason    string    `json:"reason"`
	ExpiresAt time.Time `json:"expires_at"`
	By        duration  `json:"by"`
	DryRun    bool      `json:"dry_run"`
}

// operationRequest is the body of POST /v1/operations: an operation of
// any kind on a template's coupons, on a list of coupon IDs or on the
// coupons of a list of users.
type operationRequest struct {
	Kind       string    `json:"kind"`
	TemplateID string    `json:"template_id"`
	CouponIDs  []string  `json:"coupon_ids"`
	UserIDs    []string  `json:"user_ids"`
	Reason     string    `json:"reason"`
	ExpiresAt  time.Time `json:"expires_at"`
	By         duration  `json:"by"`
	DryRun     bool      `json:"dry_run"`
}

// params returns the operation req asks at now.
func (req operationRequest) params(now time.Time) store.StartOperationParams {
	return store.StartOperationParams{
		Kind:   storetype.OperationKind(req.Kind),
		Target: storetype.OperationTarget{TemplateID: req.TemplateID, CouponIDs: req.CouponIDs, UserIDs: req.UserIDs},
		Args:   storetype.OperationArgs{Reason: req.Reason, ExpiresAt: truncate(req.ExpiresAt), By: time.Duration(req.By)},
		Now:    now,
	}
}

// decodeOperation decodes the body of POST /v1/operations; dry is
// whether it asks for a dry run.
func decodeOperation(body []byte, now time.Time) (p store.StartOperationParams, dry bool, err error) {
	req, err := decodeJSON[operationRequest](body)
	return req.params(now), req.DryRun, err
}

// decodeTemplateOperation decodes the body of the operation of kind on
// template id's coupons; dry is whether it asks for a dry run.
func decodeTemplateOperation(kind storetype.OperationKind, id string, body []byte, now time.Time) (p store.StartOperationParams, dry bool, err error) {
	req, err := decodeJSON[templateOperationRequest](body)
	full := operationRequest{Kind: string(kind), TemplateID: id, Reason: req.Reason, ExpiresAt: req.ExpiresAt, By: req.By}
	return full.params(now), req.DryRun, err
}

// templateOperation serves POST /v1/templates/{id}/void and /extend.
func (s *server) templateOperation(kind storetype.OperationKind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.startOperation(w, r, func(body []byte, now time.Time) (store.StartOperationParams, bool, error) {
			return decodeTemplateOperation(kind, r.PathValue("id"), body, now)
		})
	}
}

// operations serves POST /v1/operations.
func (s *server) operations(w http.ResponseWriter, r *http.Request) {
	s.startOperation(w, r, decodeOperation)
}

// startOperation answers a dry run with the counts by state of what the
// operation decode reads would target, 200; or starts the operation, 202,
// under the request's Idempotency-Key (see commit).
func (s *server) startOperation(w http.ResponseWriter, r *http.Request, decode func([]byte, time.Time) (store.StartOperationParams, bool, error)) {
	now := s.now()
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, dry, err := decode(body, now)
	if err == nil && dry {
		var counts map[coupon.State]int64
		if counts, err = s.store.PreviewOperation(r.Context(), p); err == nil {
			writeJSON(w, http.StatusOK, dryRunView(p, counts))
			return
		}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	fp := newFingerprint(r)
	fp.Write(body)
	commit(s, w, r, now, fp, http.StatusAccepted, func(ctx context.Context, idem *store.Idempotency) (store.Operation, error) {
		p.Idem = idem
		return s.store.StartOperation(ctx, p)
	}, operationView)
}

// getOperation serves GET /v1/operations/{id}.
func (s *server) getOperation(w http.ResponseWriter, r *http.Request) {
	op, err := s.store.Operation(r.Context(), r.PathValue("id"))
	s.writeResult(w, r, err, func() any { return operationView(op, s.now()) })
}

// Page sizes of the list of operations.
const (
	defaultOperationsLimit = 20
	maxOperationsLimit     = 100
)

// parseOperationsQuery reads ?state=<state>&after=<id>&limit=<n>.
func parseOperationsQuery(q url.Values) (store.OperationsParams, error) {
	var p store.OperationsParams
	switch st := q.Get("state"); st {
	case "", storetype.OperationRunning, storetype.OperationDone, storetype.OperationCancelled:
		p.State = st
	default:
		return p, invalid("state", "must be running, done or cancelled")
	}
	after, err := parseAfterID(q)
	if err != nil {
		return p, err
	}
	p.After = after
	p.Limit, err = parseLimit(q, defaultOperationsLimit, maxOperationsLimit)
	return p, err
}

// listOperations serves GET /v1/operations: up to the limit asked, the
// operations after the cursor newest first (by ID, so by the time they
// were accepted), of the state asked if any.
func (s *server) listOperations(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	p, err := parseOperationsQuery(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ops, err := s.store.Operations(r.Context(), p)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writePage(w, "operations", ops, p.After, func(op store.Operation) string { return op.ID },
		func(op store.Operation) operationJSON { return operationView(op, now) })
}

// cancelOperation serves POST /v1/operations/{id}/cancel: a running
// operation stops after its batch in flight, 200 with it cancelled; one
// cancelled already is answered as it is; a done one is 409
// invalid-state.
func (s *server) cancelOperation(w http.ResponseWriter, r *http.Request) {
	mutate(s, w, r, http.StatusOK, func(ctx context.Context, idem *store.Idempotency, body []byte, now time.Time) (store.Operation, error) {
		if _, err := decodeJSON[struct{}](body); err != nil {
			return store.Operation{}, err
		}
		return s.store.CancelOperation(ctx, store.CancelOperationParams{ID: r.PathValue("id"), Now: now, Idem: idem})
	}, operationView)
}

// operationJSON is an operation as the API writes it.
type operationJSON struct {
	ID         string                    `json:"id"`
	Kind       string                    `json:"kind"`
	State      string                    `json:"state"`
	Target     storetype.OperationTarget `json:"target"`
	Reason     *string                   `json:"reason"`
	ExpiresAt  *string                   `json:"expires_at"`
	By         *string                   `json:"by"`
	Actor      *string                   `json:"actor"`
	CreatedAt  string                    `json:"created_at"`
	StartedAt  *string                   `json:"started_at"`
	FinishedAt *string                   `json:"finished_at"`
	Counts     storetype.OperationCounts `json:"counts"`
	Progress   progressJSON              `json:"progress"`
}

// progressJSON is how far an operation has come: done of total coupons.
type progressJSON struct {
	Done  int64 `json:"done"`
	Total int64 `json:"total"`
}

// operationView is op as the API writes it.
func operationView(op store.Operation, _ time.Time) operationJSON {
	v := operationJSON{
		ID: op.ID, Kind: string(op.Kind), State: op.State, Target: op.Target,
		Reason: optionalString(op.Args.Reason), ExpiresAt: formatOptionalTime(op.Args.ExpiresAt), Actor: optionalString(op.Actor),
		CreatedAt: formatTime(op.CreatedAt), StartedAt: formatOptionalTime(op.StartedAt), FinishedAt: formatOptionalTime(op.FinishedAt),
		Counts: op.Counts, Progress: progressJSON{Done: op.Done, Total: op.Total},
	}
	if op.Args.By > 0 {
		by := formatDuration(op.Args.By)
		v.By = &by
	}
	if v.Counts.Skipped == nil {
		v.Counts.Skipped = map[string]int64{}
	}
	return v
}

// dryRunJSON answers a dry run: what the operation would target, by
// state.
type dryRunJSON struct {
	DryRun bool                      `json:"dry_run"`
	Kind   string                    `json:"kind"`
	Target storetype.OperationTarget `json:"target"`
	Counts countsJSON                `json:"counts"`
	Total  int64                     `json:"total"`
}

// dryRunView is the answer to a dry run of p that found counts.
func dryRunView(p store.StartOperationParams, counts map[coupon.State]int64) dryRunJSON {
	v := dryRunJSON{DryRun: true, Kind: string(p.Kind), Target: p.Target, Counts: countsJSON{
		Unused: counts[coupon.Unused], Locked: counts[coupon.Locked], Used: counts[coupon.Used],
		Expired: counts[coupon.Expired], Voided: counts[coupon.Voided],
	}}
	for _, n := range counts {
		v.Total += n
	}
	return v
}
