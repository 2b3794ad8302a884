package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
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
	mutate(s, w, r, http.StatusCreated, func(ctx context.Context, idem *store.Idempotency, body []byte, now time.Time) (coupon.Template, error) {
		t, err := decodeTemplate(body, now)
		if err != nil {
			return coupon.Template{}, err
		}
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
