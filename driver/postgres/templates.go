package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// InsertTemplate stores a new template.
func (e *executor) InsertTemplate(ctx context.Context, tp coupon.Template) error {
	var duration *time.Duration
	if tp.Duration > 0 {
		duration = &tp.Duration
	}
	return e.sqlc().InsertTemplate(ctx, dbsqlc.InsertTemplateParams{
		ID: tp.ID, Name: tp.Name, Value: tp.Value, MinSpend: tp.MinSpend, StartsAt: tp.StartsAt,
		EndsAt: nullTime(tp.EndsAt), Duration: duration, PerUserLimit: tp.PerUserLimit, Total: tp.Total,
		Reminders: notNull(tp.Reminders), CreatedAt: tp.CreatedAt,
	})
}

// notNull is reminders as the NOT NULL column takes them: none is {}.
func notNull(reminders []time.Duration) []time.Duration {
	if reminders == nil {
		return []time.Duration{}
	}
	return reminders
}

// Templates reads a page of templates by ID.
func (e *executor) Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error) {
	if p.Newest {
		rows, err := e.sqlc().NewestTemplates(ctx, dbsqlc.NewestTemplatesParams{Before: p.After, PageSize: int32(p.Limit)})
		return sqlfile.Convert(rows, err, template)
	}
	rows, err := e.sqlc().ListTemplates(ctx, dbsqlc.ListTemplatesParams{After: p.After, PageSize: int32(p.Limit)})
	return sqlfile.Convert(rows, err, template)
}

// SetTemplate stores p.Next over p.From: a compare-and-set on p.From's
// version, guarded on the coupons issued.
func (e *executor) SetTemplate(ctx context.Context, p driver.SetTemplateParams) (bool, error) {
	next := p.Next
	n, err := e.sqlc().SetTemplate(ctx, dbsqlc.SetTemplateParams{
		ID: p.From.ID, Version: p.From.Version, Name: next.Name, Value: next.Value, Total: next.Total,
		Reminders: notNull(next.Reminders), ClosedAt: nullTime(next.ClosedAt),
	})
	return n > 0, err
}

// TemplateInfo reads template p.ID, its stored counts and how many of its
// unused coupons are past expires_at at p.Now, in one snapshot outside a
// transaction (see snapshot), even while a drain commits.
func (e *executor) TemplateInfo(ctx context.Context, p driver.TemplateInfoParams) (storetype.TemplateInfo, int64, error) {
	q, end, err := e.snapshot(ctx)
	if err != nil {
		return storetype.TemplateInfo{}, 0, err
	}
	defer end()
	qs := dbsqlc.New(q)
	r, err := qs.GetTemplate(ctx, p.ID)
	if err != nil {
		return storetype.TemplateInfo{}, 0, interpret(err)
	}
	tp, _ := template(r)
	rows, err := qs.GetCounts(ctx, p.ID)
	return sqlfile.TemplateInfo(tp, rows, err, func() (int64, error) {
		return qs.CountDueUnused(ctx, dbsqlc.CountDueUnusedParams{Now: p.Now, TemplateID: p.ID})
	})
}

// Template reads a template.
func (e *executor) Template(ctx context.Context, id string) (coupon.Template, error) {
	r, err := e.sqlc().GetTemplate(ctx, id)
	return sqlfile.ConvertOne(r, err, template, interpret)
}

// ClaimTemplate reads a template claimed from and holds it until the
// transaction ends, so that claims of one template queue.
func (e *executor) ClaimTemplate(ctx context.Context, id string) (coupon.Template, error) {
	r, err := e.sqlc().GetTemplateForClaim(ctx, id)
	return sqlfile.ConvertOne(r, err, template, interpret)
}

// template is a template as read; every read of one has GetTemplate's
// columns. Its error is always nil: the pair is what sqlfile.Convert and
// ConvertOne take.
func template[R dbsqlc.GetTemplateRow | dbsqlc.ListTemplatesRow | dbsqlc.GetTemplateForClaimRow | dbsqlc.NewestTemplatesRow](row R) (coupon.Template, error) {
	r := dbsqlc.GetTemplateRow(row)
	tp := coupon.Template{
		ID: r.ID, Name: r.Name, Value: r.Value, MinSpend: r.MinSpend, StartsAt: r.StartsAt,
		EndsAt: orZero(r.EndsAt), Duration: orZero(r.Duration), PerUserLimit: r.PerUserLimit,
		Total: r.Total, Reminders: r.Reminders, CreatedAt: r.CreatedAt, ClosedAt: orZero(r.ClosedAt),
		Version: r.Version,
	}
	if len(tp.Reminders) == 0 {
		tp.Reminders = nil
	}
	return tp, nil
}

// IssuedCount reads how many coupons of a template are issued.
func (e *executor) IssuedCount(ctx context.Context, templateID string) (int64, error) {
	return e.sqlc().TemplateIssued(ctx, templateID)
}
