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

// templateRequest is the body of POST /v1/templates.
type templateRequest struct {
	Name         string          `json:"name"`
	Value        int64           `json:"value"`
	MinSpend     int64           `json:"min_spend"`
	Validity     validityRequest `json:"validity"`
	PerUserLimit int64           `json:"per_user_limit"`
	Total        int64           `json:"total"`
	Reminders    []duration      `json:"reminders"`
}

type validityRequest struct {
	StartsAt time.Time `json:"starts_at"`
	EndsAt   time.Time `json:"ends_at"`
	Duration duration  `json:"duration"`
}

// decodeTemplate decodes and validates a template; starts_at defaults to
// now. Its times are cut to the millisecond, as every store keeps them.
func decodeTemplate(body []byte, now time.Time) (coupon.Template, error) {
	req, err := decodeJSON[templateRequest](body)
	if err != nil {
		return coupon.Template{}, err
	}
	t := coupon.Template{
		Name:         req.Name,
		Value:        req.Value,
		MinSpend:     req.MinSpend,
		StartsAt:     truncate(req.Validity.StartsAt),
		EndsAt:       truncate(req.Validity.EndsAt),
		Duration:     time.Duration(req.Validity.Duration),
		PerUserLimit: req.PerUserLimit,
		Total:        req.Total,
	}
	if t.StartsAt.IsZero() {
		t.StartsAt = now
	}
	for _, d := range req.Reminders {
		t.Reminders = append(t.Reminders, time.Duration(d))
	}
	t.SortReminders()
	return t, nil
}

// templateJSON is a template as the API writes it.
type templateJSON struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Value        int64        `json:"value"`
	MinSpend     int64        `json:"min_spend"`
	Validity     validityJSON `json:"validity"`
	PerUserLimit int64        `json:"per_user_limit"`
	Total        int64        `json:"total"`
	Reminders    []string     `json:"reminders"`
	CreatedAt    string       `json:"created_at"`
	ClosedAt     *string      `json:"closed_at"`
	Counts       *countsJSON  `json:"counts,omitempty"`
}

type validityJSON struct {
	StartsAt string  `json:"starts_at"`
	EndsAt   *string `json:"ends_at"`
	Duration *string `json:"duration"`
}

type countsJSON struct {
	Unused  int64 `json:"unused"`
	Locked  int64 `json:"locked"`
	Used    int64 `json:"used"`
	Expired int64 `json:"expired"`
	Voided  int64 `json:"voided"`
}

// templateView is t as the API writes it, without counts.
func templateView(t coupon.Template, _ time.Time) templateJSON {
	v := templateJSON{
		ID:           t.ID,
		Name:         t.Name,
		Value:        t.Value,
		MinSpend:     t.MinSpend,
		Validity:     validityJSON{StartsAt: formatTime(t.StartsAt), EndsAt: formatOptionalTime(t.EndsAt)},
		PerUserLimit: t.PerUserLimit,
		Total:        t.Total,
		Reminders:    []string{},
		CreatedAt:    formatTime(t.CreatedAt),
		ClosedAt:     formatOptionalTime(t.ClosedAt),
	}
	if t.Duration != 0 {
		d := formatDuration(t.Duration)
		v.Validity.Duration = &d
	}
	for _, d := range t.Reminders {
		v.Reminders = append(v.Reminders, formatDuration(d))
	}
	return v
}

// createTemplate serves POST /v1/templates.
func (s *server) createTemplate(w http.ResponseWriter, r *http.Request) {
	mutateDecoded(s, w, r, http.StatusCreated, decodeTemplate, func(ctx context.Context, t coupon.Template, idem *store.Idempotency, now time.Time) (coupon.Template, error) {
		return s.store.CreateTemplate(ctx, store.CreateTemplateParams{Template: t, Now: now, Idem: idem})
	}, templateView)
}

// getTemplate serves GET /v1/templates/{id}.
func (s *server) getTemplate(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	info, err := s.store.Template(r.Context(), store.TemplateParams{ID: r.PathValue("id"), Now: now})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := templateView(info.Template, now)
	c := info.Counts
	v.Counts = &countsJSON{
		Unused:  c[coupon.Unused],
		Locked:  c[coupon.Locked],
		Used:    c[coupon.Used],
		Expired: c[coupon.Expired],
		Voided:  c[coupon.Voided],
	}
	writeJSON(w, http.StatusOK, v)
}

// Page sizes of the template list.
const (
	defaultTemplatesLimit = 100
	maxTemplatesLimit     = 1000
)

// parseTemplatesQuery reads ?after=<id>&limit=<n>&order=oldest|newest.
// The cursor is the ID of the last template a client has seen, in the
// order asked (see parseAfterID).
func parseTemplatesQuery(q url.Values) (storetype.TemplatesParams, error) {
	after, err := parseAfterID(q)
	if err != nil {
		return storetype.TemplatesParams{}, err
	}
	p := storetype.TemplatesParams{After: after}
	switch q.Get("order") {
	case "", "oldest":
	case "newest":
		p.Newest = true
	default:
		return p, invalid("order", "must be oldest or newest")
	}
	p.Limit, err = parseLimit(q, defaultTemplatesLimit, maxTemplatesLimit)
	return p, err
}

// listTemplates serves GET /v1/templates: up to the limit asked, the
// templates after the cursor by ID (so by creation, to the millisecond),
// oldest or, with ?order=newest, newest first, without counts.
func (s *server) listTemplates(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	p, err := parseTemplatesQuery(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	tps, err := s.store.Templates(r.Context(), p)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writePage(w, "templates", tps, p.After, func(tp coupon.Template) string { return tp.ID },
		func(tp coupon.Template) templateJSON { return templateView(tp, now) })
}

// templateChangeRequest is the body of PATCH /v1/templates/{id}: a field
// absent or null is left as it is.
type templateChangeRequest struct {
	Name      *string     `json:"name"`
	Value     *int64      `json:"value"`
	Total     *int64      `json:"total"`
	Reminders *[]duration `json:"reminders"`
}

// decodeTemplateChange decodes a template's change.
func decodeTemplateChange(body []byte) (coupon.TemplateChange, error) {
	req, err := decodeJSON[templateChangeRequest](body)
	if err != nil {
		return coupon.TemplateChange{}, err
	}
	c := coupon.TemplateChange{Name: req.Name, Value: req.Value, Total: req.Total}
	if req.Reminders != nil {
		leads := make([]time.Duration, len(*req.Reminders))
		for i, d := range *req.Reminders {
			leads[i] = time.Duration(d)
		}
		c.Reminders = &leads
	}
	return c, nil
}

// changeTemplate serves PATCH /v1/templates/{id}.
func (s *server) changeTemplate(w http.ResponseWriter, r *http.Request) {
	mutateDecoded(s, w, r, http.StatusOK, untimed(decodeTemplateChange), func(ctx context.Context, c coupon.TemplateChange, idem *store.Idempotency, now time.Time) (coupon.Template, error) {
		return s.store.ChangeTemplate(ctx, store.ChangeTemplateParams{ID: r.PathValue("id"), Change: c, Now: now, Idem: idem})
	}, templateView)
}

// decodeTemplateClose returns the reason a template's close gives; the
// body is optional.
func decodeTemplateClose(body []byte) (reason string, err error) {
	req, err := decodeJSON[reasonRequest](body)
	return req.Reason, err
}

// closeTemplate serves POST /v1/templates/{id}/close.
func (s *server) closeTemplate(w http.ResponseWriter, r *http.Request) {
	mutateDecoded(s, w, r, http.StatusOK, untimed(decodeTemplateClose), func(ctx context.Context, reason string, idem *store.Idempotency, now time.Time) (coupon.Template, error) {
		return s.store.CloseTemplate(ctx, store.CloseTemplateParams{ID: r.PathValue("id"), Reason: reason, Now: now, Idem: idem})
	}, templateView)
}
