package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// InsertTemplate stores a new template, with a zero count for each state.
func (e *executor) InsertTemplate(ctx context.Context, tp coupon.Template) error {
	err := e.sq().InsertTemplate(ctx, dbsqlc.InsertTemplateParams{
		ID: tp.ID, Name: tp.Name, Value: tp.Value, MinSpend: tp.MinSpend, StartsAt: tp.StartsAt,
		EndsAt: nullTime(tp.EndsAt), DurationMs: sql.NullInt64{Int64: tp.Duration.Milliseconds(), Valid: tp.Duration > 0},
		PerUserLimit: tp.PerUserLimit, Total: tp.Total, Reminders: sqlfile.DurationsJSON(tp.Reminders), CreatedAt: tp.CreatedAt,
	})
	if err != nil {
		return err
	}
	var args []any
	for _, st := range coupon.States {
		for slot := range sqlfile.CountSlots {
			args = append(args, tp.ID, st.String(), slot)
		}
	}
	_, err = e.execList(ctx, "InsertCounts", len(coupon.States)*sqlfile.CountSlots, args...)
	return err
}

// TemplateInfo reads template p.ID, its stored counts and how many of its
// unused coupons are past expires_at at p.Now: outside a transaction in
// one snapshot of its own, in one in the transaction's reads.
func (e *executor) TemplateInfo(ctx context.Context, p driver.TemplateInfoParams) (storetype.TemplateInfo, int64, error) {
	q := e.q
	if e.tx == nil {
		// One REPEATABLE READ snapshot, so that the stored counts and the
		// lazy correction agree even while a drain commits between the
		// two reads.
		rtx, err := e.d.reads.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
		if err != nil {
			return storetype.TemplateInfo{}, 0, err
		}
		defer rtx.Rollback()
		q = rtx
	}
	qs := dbsqlc.New(q)
	r, err := qs.GetTemplate(ctx, p.ID)
	if err != nil {
		return storetype.TemplateInfo{}, 0, interpret(err)
	}
	tp, err := template(r)
	if err != nil {
		return storetype.TemplateInfo{}, 0, err
	}
	rows, err := qs.GetCounts(ctx, p.ID)
	return sqlfile.TemplateInfo(tp, rows, err, func() (int64, error) {
		return qs.CountDueUnused(ctx, dbsqlc.CountDueUnusedParams{ExpiresAt: p.Now, TemplateID: p.ID})
	})
}

// Templates reads a page of templates by ID.
func (e *executor) Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error) {
	if p.Newest {
		rows, err := e.sq().NewestTemplates(ctx, dbsqlc.NewestTemplatesParams{Before: p.After, Limit: int32(p.Limit)})
		return sqlfile.Convert(rows, err, template)
	}
	rows, err := e.sq().ListTemplates(ctx, dbsqlc.ListTemplatesParams{After: p.After, Limit: int32(p.Limit)})
	return sqlfile.Convert(rows, err, template)
}

// SetTemplate stores p.Next over p.From: a compare-and-set on p.From's
// version, guarded on the coupons issued.
func (e *executor) SetTemplate(ctx context.Context, p driver.SetTemplateParams) (bool, error) {
	from, next := p.From, p.Next
	n, err := e.sq().SetTemplate(ctx, dbsqlc.SetTemplateParams{
		ID: from.ID, Version: from.Version, Name: next.Name, Value: next.Value, Total: next.Total,
		Reminders: sqlfile.DurationsJSON(next.Reminders), ClosedAt: nullTime(next.ClosedAt),
	})
	return n > 0, err
}

// Template reads a template.
func (e *executor) Template(ctx context.Context, id string) (coupon.Template, error) {
	r, err := e.sq().GetTemplate(ctx, id)
	return sqlfile.ConvertOne(r, err, template, interpret)
}

// ClaimTemplate reads a template claimed from and holds its row until the
// transaction ends: claims of one template queue here, so that each
// checks the per-user limit and the total on what the one before
// committed.
func (e *executor) ClaimTemplate(ctx context.Context, id string) (coupon.Template, error) {
	r, err := e.sq().LockTemplate(ctx, id)
	return sqlfile.ConvertOne(r, err, template, interpret)
}

type scanner = sqlfile.Scanner

// template is a template as read; every read of one has GetTemplate's
// columns.
func template[R dbsqlc.GetTemplateRow | dbsqlc.ListTemplatesRow | dbsqlc.LockTemplateRow | dbsqlc.NewestTemplatesRow](row R) (coupon.Template, error) {
	r := dbsqlc.GetTemplateRow(row)
	tp := coupon.Template{
		ID: r.ID, Name: r.Name, Value: r.Value, MinSpend: r.MinSpend, StartsAt: r.StartsAt,
		EndsAt: utc(r.EndsAt), Duration: time.Duration(r.DurationMs.Int64) * time.Millisecond,
		PerUserLimit: r.PerUserLimit, Total: r.Total, CreatedAt: r.CreatedAt, ClosedAt: utc(r.ClosedAt),
		Version: r.Version,
	}
	var err error
	tp.Reminders, err = sqlfile.ParseDurations(r.Reminders)
	return tp, err
}

// IssuedCount reads how many coupons of a template are issued.
func (e *executor) IssuedCount(ctx context.Context, templateID string) (int64, error) {
	return e.sq().TemplateIssued(ctx, templateID)
}
