package store

import (
	"fmt"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// changeTemplateIn applies p.Change to template p.ID in t. It holds the
// template's row as a claim does, so that claims and issuance batches
// queue behind the change and see it, and stores it with a compare-and-set
// on its version, guarded in SQL on the coupons issued. A change that
// changes nothing writes nothing and makes no event.
func changeTemplateIn(t *txn, p ChangeTemplateParams) (coupon.Template, error) {
	tp, err := t.ClaimTemplate(t.ctx, p.ID)
	if err != nil {
		return tp, err
	}
	next := p.Change.Apply(tp)
	data, changed := templateUpdate(tp, next)
	if !changed {
		return tp, nil
	}
	if next.Total > 0 && next.Total != tp.Total {
		issued, err := t.IssuedCount(t.ctx, tp.ID)
		if err != nil {
			return tp, err
		}
		if issued > next.Total {
			return tp, &coupon.InvalidError{Field: "total", Reason: fmt.Sprintf("below the %d coupons already issued", issued)}
		}
	}
	return setTemplate(t, tp, next, storetype.Event{Type: EventTemplateUpdated, Data: mustJSON(data)}, p.Now)
}

// closeTemplateIn closes template p.ID in t, holding its row as a claim
// does, so that a claim or an issuance batch after the close sees it.
// Closing a closed template returns it as it is.
func closeTemplateIn(t *txn, p CloseTemplateParams) (coupon.Template, error) {
	tp, err := t.ClaimTemplate(t.ctx, p.ID)
	if err != nil || !tp.ClosedAt.IsZero() {
		return tp, err
	}
	issued, err := t.IssuedCount(t.ctx, tp.ID)
	if err != nil {
		return tp, err
	}
	next := tp
	next.ClosedAt = p.Now
	data := TemplateClosedData{From: "open", Reason: p.Reason, Issued: issued}
	return setTemplate(t, tp, next, storetype.Event{Type: EventTemplateClosed, Data: mustJSON(data)}, p.Now)
}

// setTemplate stores next over tp with a compare-and-set and writes e, the
// event of the change, about it at now.
func setTemplate(t *txn, tp, next coupon.Template, e storetype.Event, now time.Time) (coupon.Template, error) {
	next.Version = tp.Version + 1
	ok, err := t.SetTemplate(t.ctx, driver.SetTemplateParams{From: tp, Next: next})
	if err == nil && !ok {
		// The row is held since it was read: only a bug gets here.
		err = fmt.Errorf("set template %s at version %d: %w", tp.ID, tp.Version, errNoRow)
	}
	if err != nil {
		return tp, err
	}
	e.ID, e.Subject, e.Time = NewID("evt", now), tp.ID, now
	return next, t.Event(e)
}

// TemplateFields are the fields of a template a change may set, as an
// event writes them; a field left out did not change.
type TemplateFields struct {
	Name      *string   `json:"name,omitempty"`
	Value     *int64    `json:"value,omitempty"`
	Total     *int64    `json:"total,omitempty"`
	Reminders *[]string `json:"reminders,omitempty"`
}

// TemplateUpdatedData is the data of a template.updated event: the
// fields that changed, as they were and as they are.
type TemplateUpdatedData struct {
	From TemplateFields `json:"from"`
	To   TemplateFields `json:"to"`
}

// TemplateClosedData is the data of a template.closed event.
type TemplateClosedData struct {
	// From is the state the template left: "open".
	From   string `json:"from"`
	Reason string `json:"reason,omitempty"`
	// Issued counts the coupons the template issued before it closed.
	Issued int64 `json:"issued"`
}

// templateUpdate is the data of the event of a change from a to b, and
// whether anything changed.
func templateUpdate(a, b coupon.Template) (TemplateUpdatedData, bool) {
	var d TemplateUpdatedData
	changed := false
	if a.Name != b.Name {
		d.From.Name, d.To.Name, changed = &a.Name, &b.Name, true
	}
	if a.Value != b.Value {
		d.From.Value, d.To.Value, changed = &a.Value, &b.Value, true
	}
	if a.Total != b.Total {
		d.From.Total, d.To.Total, changed = &a.Total, &b.Total, true
	}
	if !slices.Equal(a.Reminders, b.Reminders) {
		from, to := formatDurations(a.Reminders), formatDurations(b.Reminders)
		d.From.Reminders, d.To.Reminders, changed = &from, &to, true
	}
	return d, changed
}

// formatDurations writes ds as the API writes durations; none is [].
func formatDurations(ds []time.Duration) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = FormatDuration(d)
	}
	return out
}
