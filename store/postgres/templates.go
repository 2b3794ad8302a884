package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// CreateTemplate stores p.Template under a new ID.
func (s *Store) CreateTemplate(ctx context.Context, p store.CreateTemplateParams) (coupon.Template, error) {
	return inTx(ctx, s, func(t *tx) (coupon.Template, error) {
		tp := p.Template
		tp.ID = store.NewID("tpl", p.Now)
		tp.CreatedAt = p.Now
		var duration *time.Duration
		if tp.Duration > 0 {
			duration = &tp.Duration
		}
		reminders := tp.Reminders
		if reminders == nil {
			reminders = []time.Duration{} // NOT NULL
		}
		_, err := t.exec("InsertTemplate", tp.ID, tp.Name, tp.Value, tp.MinSpend, tp.StartsAt,
			nullTime(tp.EndsAt), duration, tp.PerUserLimit, tp.Total, reminders, tp.CreatedAt)
		return tp, err
	})
}

// Template returns a template and its counts, unused coupons past their
// expires_at counted as expired.
func (s *Store) Template(ctx context.Context, p store.TemplateParams) (store.TemplateInfo, error) {
	// One snapshot for the stored counts and the lazy correction, even
	// while a drain commits.
	rtx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return store.TemplateInfo{}, err
	}
	defer rtx.Rollback(context.WithoutCancel(ctx))
	tp, err := scanTemplate(rtx.QueryRow(ctx, queries.Get("GetTemplate"), p.ID))
	if err != nil {
		return store.TemplateInfo{}, interpret(err)
	}
	info := store.TemplateInfo{Template: tp, Counts: map[coupon.State]int64{}}
	rows, err := rtx.Query(ctx, queries.Get("GetCounts"), p.ID)
	if err != nil {
		return info, err
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
		return info, err
	}
	var due int64
	if err := rtx.QueryRow(ctx, queries.Get("CountDueUnused"), p.Now, p.ID).Scan(&due); err != nil {
		return info, err
	}
	info.Counts[coupon.Unused] -= due
	info.Counts[coupon.Expired] += due
	return info, nil
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
		duration *time.Duration
	)
	err := row.Scan(&tp.ID, &tp.Name, &tp.Value, &tp.MinSpend, &tp.StartsAt, &endsAt, &duration,
		&tp.PerUserLimit, &tp.Total, &tp.Reminders, &tp.CreatedAt)
	tp.EndsAt, tp.Duration = orZero(endsAt), orZero(duration)
	if len(tp.Reminders) == 0 {
		tp.Reminders = nil
	}
	return tp, err
}
