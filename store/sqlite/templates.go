package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile"
)

// InsertTemplate stores a new template.
func (t *tx) InsertTemplate(tp coupon.Template) error {
	_, err := t.exec("InsertTemplate", tp.ID, tp.Name, tp.Value, tp.MinSpend, ms(tp.StartsAt),
		nullMS(tp.EndsAt), sql.NullInt64{Int64: tp.Duration.Milliseconds(), Valid: tp.Duration > 0},
		tp.PerUserLimit, tp.Total, sqlfile.DurationsJSON(tp.Reminders), ms(tp.CreatedAt))
	return err
}

// Template reads a template, its stored counts and how many of its unused
// coupons are past expires_at at now.
func (s *Driver) Template(ctx context.Context, id string, now time.Time) (store.TemplateInfo, int64, error) {
	// One read transaction, so that the stored counts and the lazy
	// correction come from the same snapshot even while a drain commits.
	rtx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return store.TemplateInfo{}, 0, err
	}
	defer rtx.Rollback()
	tp, err := scanTemplate(rtx.QueryRowContext(ctx, queries.Get("GetTemplate"), id))
	if err != nil {
		return store.TemplateInfo{}, 0, interpret(err)
	}
	info := store.TemplateInfo{Template: tp, Counts: map[coupon.State]int64{}}
	rows, err := rtx.QueryContext(ctx, queries.Get("GetCounts"), id)
	if err != nil {
		return info, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			status string
			n      int64
		)
		if err := rows.Scan(&status, &n); err != nil {
			return info, 0, err
		}
		st, err := coupon.ParseState(status)
		if err != nil {
			return info, 0, err
		}
		info.Counts[st] = n
	}
	if err := rows.Err(); err != nil {
		return info, 0, err
	}
	var due int64
	err = rtx.QueryRowContext(ctx, queries.Get("CountDueUnused"), ms(now), id).Scan(&due)
	return info, due, err
}

// Templates reads a page of templates by ID.
func (s *Driver) Templates(ctx context.Context, p store.TemplatesParams) ([]coupon.Template, error) {
	rows, err := s.read(ctx, "ListTemplates", p.After, p.Limit)
	return sqlfile.Collect(rows, err, scanTemplate)
}

// SetTemplate stores next over from: a compare-and-set on from's version,
// guarded on the coupons issued.
func (t *tx) SetTemplate(from, next coupon.Template) (bool, error) {
	return t.execOne("SetTemplate", from.ID, from.Version, next.Name, next.Value, next.Total,
		sqlfile.DurationsJSON(next.Reminders), nullMS(next.ClosedAt))
}

// Template reads a template.
func (t *tx) Template(id string) (coupon.Template, error) {
	tp, err := scanTemplate(t.queryRow("GetTemplate", id))
	return tp, interpret(err)
}

// ClaimTemplate reads a template claimed from: the one writer already
// queues the claims.
func (t *tx) ClaimTemplate(id string) (coupon.Template, error) { return t.Template(id) }

type scanner = sqlfile.Scanner

func scanTemplate(row scanner) (coupon.Template, error) {
	var (
		tp                  coupon.Template
		startsAt, createdAt int64
		endsAt, durationMS  sql.NullInt64
		closedAt            sql.NullInt64
		reminders           string
	)
	err := row.Scan(&tp.ID, &tp.Name, &tp.Value, &tp.MinSpend, &startsAt, &endsAt, &durationMS,
		&tp.PerUserLimit, &tp.Total, &reminders, &createdAt, &closedAt, &tp.Version)
	if err != nil {
		return tp, err
	}
	tp.StartsAt, tp.EndsAt, tp.CreatedAt, tp.ClosedAt = at(startsAt), atNull(endsAt), at(createdAt), atNull(closedAt)
	tp.Duration = time.Duration(durationMS.Int64) * time.Millisecond
	tp.Reminders, err = sqlfile.ParseDurations(reminders)
	return tp, err
}
