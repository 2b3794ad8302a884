package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// InsertTemplate stores a new template.
func (t *tx) InsertTemplate(tp coupon.Template) error {
	var duration *time.Duration
	if tp.Duration > 0 {
		duration = &tp.Duration
	}
	return t.q().InsertTemplate(t.ctx, dbsqlc.InsertTemplateParams{
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
func (s *Driver) Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error) {
	rows, err := s.readq().ListTemplates(ctx, dbsqlc.ListTemplatesParams{After: p.After, PageSize: int32(p.Limit)})
	tps := make([]coupon.Template, len(rows))
	for i, r := range rows {
		tps[i] = template(dbsqlc.GetTemplateRow(r))
	}
	return tps, err
}

// SetTemplate stores next over from: a compare-and-set on from's version,
// guarded on the coupons issued.
func (t *tx) SetTemplate(from, next coupon.Template) (bool, error) {
	n, err := t.q().SetTemplate(t.ctx, dbsqlc.SetTemplateParams{
		ID: from.ID, Version: from.Version, Name: next.Name, Value: next.Value, Total: next.Total,
		Reminders: notNull(next.Reminders), ClosedAt: nullTime(next.ClosedAt),
	})
	return n > 0, err
}

// Template reads a template, its stored counts and how many of its unused
// coupons are past expires_at at now, in one snapshot.
func (s *Driver) Template(ctx context.Context, id string, now time.Time) (storetype.TemplateInfo, int64, error) {
	// One snapshot for the stored counts and the lazy correction, even
	// while a drain commits.
	rtx, err := s.reads.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return storetype.TemplateInfo{}, 0, err
	}
	defer rtx.Rollback(context.WithoutCancel(ctx))
	r, err := dbsqlc.New(rtx).GetTemplate(ctx, id)
	if err != nil {
		return storetype.TemplateInfo{}, 0, interpret(err)
	}
	info := storetype.TemplateInfo{Template: template(r)}
	rows, err := rtx.Query(ctx, queries.Get("GetCounts"), id)
	if err != nil {
		return info, 0, err
	}
	defer rows.Close()
	if info.Counts, err = sqlfile.ScanStateCounts(rows); err != nil {
		return info, 0, err
	}
	var due int64
	err = rtx.QueryRow(ctx, queries.Get("CountDueUnused"), now, id).Scan(&due)
	return info, due, err
}

// Template reads a template.
func (t *tx) Template(id string) (coupon.Template, error) {
	r, err := t.q().GetTemplate(t.ctx, id)
	return template(r), interpret(err)
}

// ClaimTemplate reads a template claimed from and holds it until the
// transaction ends, so that claims of one template queue.
func (t *tx) ClaimTemplate(id string) (coupon.Template, error) {
	r, err := t.q().GetTemplateForClaim(t.ctx, id)
	return template(dbsqlc.GetTemplateRow(r)), interpret(err)
}

// template is a template as read; every read of one has GetTemplate's
// columns.
func template(r dbsqlc.GetTemplateRow) coupon.Template {
	tp := coupon.Template{
		ID: r.ID, Name: r.Name, Value: r.Value, MinSpend: r.MinSpend, StartsAt: r.StartsAt,
		EndsAt: orZero(r.EndsAt), Duration: orZero(r.Duration), PerUserLimit: r.PerUserLimit,
		Total: r.Total, Reminders: r.Reminders, CreatedAt: r.CreatedAt, ClosedAt: orZero(r.ClosedAt),
		Version: r.Version,
	}
	if len(tp.Reminders) == 0 {
		tp.Reminders = nil
	}
	return tp
}
