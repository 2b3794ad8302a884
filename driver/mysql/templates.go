package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// InsertTemplate stores a new template, with a zero count for each state.
func (t *tx) InsertTemplate(tp coupon.Template) error {
	err := t.q().InsertTemplate(t.ctx, dbsqlc.InsertTemplateParams{
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
	_, err = t.execList("InsertCounts", len(coupon.States)*sqlfile.CountSlots, args...)
	return err
}

// Template reads a template, its stored counts and how many of its unused
// coupons are past expires_at at now, in one snapshot.
func (s *Driver) Template(ctx context.Context, id string, now time.Time) (storetype.TemplateInfo, int64, error) {
	// One REPEATABLE READ snapshot, so that the stored counts and the lazy
	// correction agree even while a drain commits between the two reads.
	rtx, err := s.reads.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return storetype.TemplateInfo{}, 0, err
	}
	defer rtx.Rollback()
	r, err := dbsqlc.New(rtx).GetTemplate(ctx, id)
	if err != nil {
		return storetype.TemplateInfo{}, 0, interpret(err)
	}
	tp, err := template(r)
	if err != nil {
		return storetype.TemplateInfo{}, 0, err
	}
	info := storetype.TemplateInfo{Template: tp}
	rows, err := rtx.QueryContext(ctx, queries.Get("GetCounts"), id)
	if err != nil {
		return info, 0, err
	}
	defer rows.Close()
	if info.Counts, err = sqlfile.ScanStateCounts(rows); err != nil {
		return info, 0, err
	}
	var due int64
	err = rtx.QueryRowContext(ctx, queries.Get("CountDueUnused"), now, id).Scan(&due)
	return info, due, err
}

// Templates reads a page of templates by ID.
func (s *Driver) Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error) {
	rows, err := s.readq().ListTemplates(ctx, dbsqlc.ListTemplatesParams{After: p.After, Limit: int32(p.Limit)})
	return sqlfile.Convert(rows, err, func(r dbsqlc.ListTemplatesRow) (coupon.Template, error) {
		return template(dbsqlc.GetTemplateRow(r))
	})
}

// SetTemplate stores next over from: a compare-and-set on from's version,
// guarded on the coupons issued.
func (t *tx) SetTemplate(from, next coupon.Template) (bool, error) {
	n, err := t.q().SetTemplate(t.ctx, dbsqlc.SetTemplateParams{
		ID: from.ID, Version: from.Version, Name: next.Name, Value: next.Value, Total: next.Total,
		Reminders: sqlfile.DurationsJSON(next.Reminders), ClosedAt: nullTime(next.ClosedAt),
	})
	return n > 0, err
}

// Template reads a template.
func (t *tx) Template(id string) (coupon.Template, error) {
	r, err := t.q().GetTemplate(t.ctx, id)
	return sqlfile.ConvertOne(r, err, template, interpret)
}

// ClaimTemplate reads a template claimed from and holds its row until the
// transaction ends: claims of one template queue here, so that each
// checks the per-user limit and the total on what the one before
// committed.
func (t *tx) ClaimTemplate(id string) (coupon.Template, error) {
	r, err := t.q().LockTemplate(t.ctx, id)
	if err != nil {
		return coupon.Template{}, interpret(err)
	}
	return template(dbsqlc.GetTemplateRow(r))
}

type scanner = sqlfile.Scanner

// template is a template as read; every read of one has GetTemplate's
// columns.
func template(r dbsqlc.GetTemplateRow) (coupon.Template, error) {
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
