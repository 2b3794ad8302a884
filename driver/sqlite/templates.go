package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// InsertTemplate stores a new template.
func (e *executor) InsertTemplate(ctx context.Context, tp coupon.Template) error {
	return e.q().InsertTemplate(ctx, dbsqlc.InsertTemplateParams{
		ID: tp.ID, Name: tp.Name, Value: tp.Value, MinSpend: tp.MinSpend, StartsAt: ms(tp.StartsAt),
		EndsAt: nullMS(tp.EndsAt), DurationMs: sql.NullInt64{Int64: tp.Duration.Milliseconds(), Valid: tp.Duration > 0},
		PerUserLimit: tp.PerUserLimit, Total: tp.Total, Reminders: sqlfile.DurationsJSON(tp.Reminders), CreatedAt: ms(tp.CreatedAt),
	})
}

// TemplateInfo reads template p.ID, its stored counts and how many of its
// unused coupons are past expires_at at p.Now.
func (e *executor) TemplateInfo(ctx context.Context, p driver.TemplateInfoParams) (storetype.TemplateInfo, int64, error) {
	if e.tx != nil {
		return e.templateInfo(ctx, p)
	}
	// One read transaction, so that the stored counts and the lazy
	// correction come from the same snapshot even while a drain commits.
	rtx, err := e.d.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return storetype.TemplateInfo{}, 0, err
	}
	defer rtx.Rollback()
	return e.d.readExecutor(rtx).templateInfo(ctx, p)
}

// templateInfo is TemplateInfo's reads, in the executor's one snapshot.
func (e *executor) templateInfo(ctx context.Context, p driver.TemplateInfoParams) (storetype.TemplateInfo, int64, error) {
	tp, err := e.Template(ctx, p.ID)
	if err != nil {
		return storetype.TemplateInfo{}, 0, err
	}
	rows, err := e.q().GetCounts(ctx, p.ID)
	return sqlfile.TemplateInfo(tp, rows, err, func() (int64, error) {
		return e.q().CountDueUnused(ctx, dbsqlc.CountDueUnusedParams{Now: ms(p.Now), TemplateID: p.ID})
	})
}

// Templates reads a page of templates by ID.
func (e *executor) Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error) {
	if p.Newest {
		rows, err := e.q().NewestTemplates(ctx, dbsqlc.NewestTemplatesParams{Before: p.After, PageSize: int64(p.Limit)})
		return sqlfile.Convert(rows, err, template)
	}
	rows, err := e.q().ListTemplates(ctx, dbsqlc.ListTemplatesParams{After: p.After, PageSize: int64(p.Limit)})
	return sqlfile.Convert(rows, err, template)
}

// SetTemplate stores p.Next over p.From: a compare-and-set on p.From's
// version, guarded on the coupons issued.
func (e *executor) SetTemplate(ctx context.Context, p driver.SetTemplateParams) (bool, error) {
	from, next := p.From, p.Next
	n, err := e.q().SetTemplate(ctx, dbsqlc.SetTemplateParams{
		ID: from.ID, Version: from.Version, Name: next.Name, Value: next.Value, Total: next.Total,
		Reminders: sqlfile.DurationsJSON(next.Reminders), ClosedAt: nullMS(next.ClosedAt),
	})
	return n > 0, err
}

// Template reads a template.
func (e *executor) Template(ctx context.Context, id string) (coupon.Template, error) {
	r, err := e.q().GetTemplate(ctx, id)
	return sqlfile.ConvertOne(r, err, template, interpret)
}

// ClaimTemplate reads a template claimed from: the one writer already
// queues the claims.
func (e *executor) ClaimTemplate(ctx context.Context, id string) (coupon.Template, error) {
	return e.Template(ctx, id)
}

// template is a template as read; every read of one has GetTemplate's
// columns.
func template[R dbsqlc.GetTemplateRow | dbsqlc.ListTemplatesRow | dbsqlc.NewestTemplatesRow](row R) (coupon.Template, error) {
	r := dbsqlc.GetTemplateRow(row)
	tp := coupon.Template{
		ID: r.ID, Name: r.Name, Value: r.Value, MinSpend: r.MinSpend, StartsAt: at(r.StartsAt),
		EndsAt: atNull(r.EndsAt), Duration: time.Duration(r.DurationMs.Int64) * time.Millisecond,
		PerUserLimit: r.PerUserLimit, Total: r.Total, CreatedAt: at(r.CreatedAt), ClosedAt: atNull(r.ClosedAt),
		Version: r.Version,
	}
	var err error
	tp.Reminders, err = sqlfile.ParseDurations(r.Reminders)
	return tp, err
}

// IssuedCount reads how many coupons of a template are issued.
func (e *executor) IssuedCount(ctx context.Context, templateID string) (int64, error) {
	return e.q().TemplateIssued(ctx, templateID)
}
