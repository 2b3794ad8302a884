package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile"
)

// InsertTemplate stores a new template, with a zero count for each state.
func (t *tx) InsertTemplate(tp coupon.Template) error {
	_, err := t.exec("InsertTemplate", tp.ID, tp.Name, tp.Value, tp.MinSpend, tp.StartsAt,
		nullTime(tp.EndsAt), sql.NullInt64{Int64: tp.Duration.Milliseconds(), Valid: tp.Duration > 0},
		tp.PerUserLimit, tp.Total, sqlfile.DurationsJSON(tp.Reminders), tp.CreatedAt)
	if err != nil {
		return err
	}
	var args []any
	for _, st := range coupon.States {
		for slot := range store.CountSlots {
			args = append(args, tp.ID, st.String(), slot)
		}
	}
	_, err = t.execList("InsertCounts", len(coupon.States)*store.CountSlots, args...)
	return err
}

// Template reads a template, its stored counts and how many of its unused
// coupons are past expires_at at now, in one snapshot.
func (s *Driver) Template(ctx context.Context, id string, now time.Time) (store.TemplateInfo, int64, error) {
	// One REPEATABLE READ snapshot, so that the stored counts and the lazy
	// correction agree even while a drain commits between the two reads.
	rtx, err := s.reads.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
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
	err = rtx.QueryRowContext(ctx, queries.Get("CountDueUnused"), now, id).Scan(&due)
	return info, due, err
}

// Templates reads a page of templates by ID.
func (s *Driver) Templates(ctx context.Context, p store.TemplatesParams) ([]coupon.Template, error) {
	rows, err := s.query(ctx, "ListTemplates", p.After, p.Limit)
	return sqlfile.Collect(rows, err, scanTemplate)
}

// SetTemplate stores next over from: a compare-and-set on from's version,
// guarded on the coupons issued.
func (t *tx) SetTemplate(from, next coupon.Template) (bool, error) {
	return t.execOne("SetTemplate", next.Name, next.Value, next.Total, sqlfile.DurationsJSON(next.Reminders),
		nullTime(next.ClosedAt), from.ID, from.Version, next.Total, next.Total)
}

// Template reads a template.
func (t *tx) Template(id string) (coupon.Template, error) {
	tp, err := scanTemplate(t.queryRow("GetTemplate", id))
	return tp, interpret(err)
}

// ClaimTemplate reads a template claimed from and holds its row until the
// transaction ends: claims of one template queue here, so that each
// checks the per-user limit and the total on what the one before
// committed.
func (t *tx) ClaimTemplate(id string) (coupon.Template, error) {
	tp, err := scanTemplate(t.queryRow("LockTemplate", id))
	return tp, interpret(err)
}

type scanner = sqlfile.Scanner

func scanTemplate(row scanner) (coupon.Template, error) {
	var (
		tp         coupon.Template
		endsAt     sql.NullTime
		closedAt   sql.NullTime
		durationMS sql.NullInt64
		reminders  string
	)
	err := row.Scan(&tp.ID, &tp.Name, &tp.Value, &tp.MinSpend, &tp.StartsAt, &endsAt, &durationMS,
		&tp.PerUserLimit, &tp.Total, &reminders, &tp.CreatedAt, &closedAt, &tp.Version)
	if err != nil {
		return tp, err
	}
	tp.EndsAt, tp.ClosedAt = utc(endsAt), utc(closedAt)
	tp.Duration = time.Duration(durationMS.Int64) * time.Millisecond
	tp.Reminders, err = sqlfile.ParseDurations(reminders)
	return tp, err
}
