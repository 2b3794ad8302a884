package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// InsertTemplate stores a new template.
func (t *tx) InsertTemplate(tp coupon.Template) error {
	var duration *time.Duration
	if tp.Duration > 0 {
		duration = &tp.Duration
	}
	_, err := t.exec("InsertTemplate", tp.ID, tp.Name, tp.Value, tp.MinSpend, tp.StartsAt,
		nullTime(tp.EndsAt), duration, tp.PerUserLimit, tp.Total, notNull(tp.Reminders), tp.CreatedAt)
	return err
}

// notNull is reminders as the NOT NULL column takes them: none is {}.
func notNull(reminders []time.Duration) []time.Duration {
	if reminders == nil {
		return []time.Duration{}
	}
	return reminders
}

// Templates reads a page of templates by ID.
func (s *Driver) Templates(ctx context.Context, p store.TemplatesParams) ([]coupon.Template, error) {
	rows, err := s.read(ctx, "ListTemplates", p.After, p.Limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (coupon.Template, error) { return scanTemplate(row) })
}

// SetTemplate stores next over from: a compare-and-set on from's version,
// guarded on the coupons issued.
func (t *tx) SetTemplate(from, next coupon.Template) (bool, error) {
	return t.execOne("SetTemplate", from.ID, from.Version, next.Name, next.Value, next.Total,
		notNull(next.Reminders), nullTime(next.ClosedAt))
}

// Template reads a template, its stored counts and how many of its unused
// coupons are past expires_at at now, in one snapshot.
func (s *Driver) Template(ctx context.Context, id string, now time.Time) (store.TemplateInfo, int64, error) {
	// One snapshot for the stored counts and the lazy correction, even
	// while a drain commits.
	rtx, err := s.reads.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return store.TemplateInfo{}, 0, err
	}
	defer rtx.Rollback(context.WithoutCancel(ctx))
	tp, err := scanTemplate(rtx.QueryRow(ctx, queries.Get("GetTemplate"), id))
	if err != nil {
		return store.TemplateInfo{}, 0, interpret(err)
	}
	info := store.TemplateInfo{Template: tp, Counts: map[coupon.State]int64{}}
	rows, err := rtx.Query(ctx, queries.Get("GetCounts"), id)
	if err != nil {
		return info, 0, err
	}
	var (
		status string
		n      int64
	)
	_, err = pgx.ForEachRow(rows, []any{&status, &n}, func() error {
		st, err := coupon.ParseState(status)
		info.Counts[st] = n
		return err
	})
	if err != nil {
		return info, 0, err
	}
	var due int64
	err = rtx.QueryRow(ctx, queries.Get("CountDueUnused"), now, id).Scan(&due)
	return info, due, err
}

// Template reads a template.
func (t *tx) Template(id string) (coupon.Template, error) {
	tp, err := scanTemplate(t.queryRow("GetTemplate", id))
	return tp, interpret(err)
}

// ClaimTemplate reads a template claimed from and holds it until the
// transaction ends, so that claims of one template queue.
func (t *tx) ClaimTemplate(id string) (coupon.Template, error) {
	tp, err := scanTemplate(t.queryRow("GetTemplateForClaim", id))
	return tp, interpret(err)
}

func scanTemplate(row scanner) (coupon.Template, error) {
	var (
		tp       coupon.Template
		endsAt   *time.Time
		closedAt *time.Time
		duration *time.Duration
	)
	err := row.Scan(&tp.ID, &tp.Name, &tp.Value, &tp.MinSpend, &tp.StartsAt, &endsAt, &duration,
		&tp.PerUserLimit, &tp.Total, &tp.Reminders, &tp.CreatedAt, &closedAt, &tp.Version)
	tp.EndsAt, tp.Duration, tp.ClosedAt = orZero(endsAt), orZero(duration), orZero(closedAt)
	if len(tp.Reminders) == 0 {
		tp.Reminders = nil
	}
	return tp, err
}
