package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/store"
)

// tx is one write transaction: it remembers the group timers it wrote so
// they can be announced once it commits.
type tx struct {
	sql    *sql.Tx
	ctx    context.Context
	stmts  map[string]*sql.Stmt
	timers []store.Timer
	events []string
}

func (t *tx) stmt(name string) *sql.Stmt {
	st, ok := t.stmts[name]
	if !ok {
		panic("sqlite: no query named " + name)
	}
	return t.sql.StmtContext(t.ctx, st)
}

func (t *tx) exec(name string, args ...any) (sql.Result, error) {
	return t.stmt(name).ExecContext(t.ctx, args...)
}

// execOne runs a guarded write and reports whether it changed a row.
func (t *tx) execOne(name string, args ...any) (bool, error) {
	res, err := t.exec(name, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (t *tx) queryRow(name string, args ...any) *sql.Row {
	return t.stmt(name).QueryRowContext(t.ctx, args...)
}

func (t *tx) query(name string, args ...any) (*sql.Rows, error) {
	return t.stmt(name).QueryContext(t.ctx, args...)
}

// timer makes sure the group timer for kind at due exists.
func (t *tx) timer(kind store.TimerKind, due time.Time) error {
	tm := store.Timer{Kind: kind, Due: store.BucketOf(due)}
	if _, err := t.exec("InsertTimer", ms(tm.Due), string(kind)); err != nil {
		return err
	}
	t.timers = append(t.timers, tm)
	return nil
}

func (t *tx) event(e store.Event) error {
	if _, err := t.exec("InsertEvent", e.ID, e.Type, e.Subject, ms(e.Time), string(e.Data)); err != nil {
		return err
	}
	t.events = append(t.events, e.Type)
	return nil
}

// count moves n coupons of a template into status (n < 0: out of it).
func (t *tx) count(templateID, status string, n int64) error {
	_, err := t.exec("AddCount", templateID, status, n)
	return err
}

// inTx runs fn in one write transaction. With an idempotency key on ctx it
// replays the stored response of an earlier identical request instead, or
// stores this one's response in the same transaction.
func inTx[T any](ctx context.Context, s *Store, fn func(*tx) (T, error)) (T, error) {
	idem, idempotent := store.IdempotencyFrom(ctx)
	if !idempotent {
		return writeTx(ctx, s, fn)
	}
	return writeTx(ctx, s, func(t *tx) (T, error) {
		var zero T
		inFlight, _, err := t.replay(idem)
		if err != nil {
			return zero, err
		}
		if inFlight {
			return zero, store.ErrIdempotencyConflict
		}
		res, err := fn(t)
		if err != nil {
			return zero, err
		}
		status, body := render(idem, res)
		_, err = t.exec("PutIdempotency", idem.Key, idem.Fingerprint, status, body, ms(idem.Now))
		return res, err
	})
}

// writeTx runs fn in one foreground write transaction: a user's request,
// which background transactions make way for.
func writeTx[T any](ctx context.Context, s *Store, fn func(*tx) (T, error)) (T, error) {
	defer s.gate.enter()()
	return runTx(ctx, s, fn)
}

// backgroundTx runs fn in one background write transaction (a drain batch,
// an issuance batch) once no user's write waits for the writer.
func backgroundTx[T any](ctx context.Context, s *Store, fn func(*tx) (T, error)) (T, error) {
	s.gate.yield(ctx)
	return runTx(ctx, s, fn)
}

// runTx runs fn in one write transaction and, once it commits, announces
// the timers and events it wrote.
func runTx[T any](ctx context.Context, s *Store, fn func(*tx) (T, error)) (T, error) {
	var zero T
	sqlTx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return zero, err
	}
	defer sqlTx.Rollback()
	t := &tx{sql: sqlTx, ctx: ctx, stmts: s.stmts}
	res, err := fn(t)
	if err != nil {
		return zero, interpret(err)
	}
	if err := sqlTx.Commit(); err != nil {
		return zero, err
	}
	s.ckpt.committed()
	if s.opts.OnTimer != nil {
		for _, tm := range t.timers {
			s.opts.OnTimer(tm)
		}
	}
	if s.opts.OnEvents != nil && len(t.events) > 0 {
		s.opts.OnEvents(t.events)
	}
	return res, nil
}

// render renders the response to idem's request from res.
func render(idem store.Idempotency, res any) (int, []byte) {
	status, body := idem.Render(res)
	if body == nil {
		body = []byte{} // a nil slice binds as NULL; body is NOT NULL
	}
	return status, body
}

// inFlight is the status recorded for a request under way over several
// transactions (a bulk issuance); HTTP statuses start at 100.
const inFlight = 0

// replay returns the stored response of an earlier request with the same
// key as a *store.ReplayError, or ErrIdempotencyConflict if that request
// was a different one. If the same request is still in flight, it reports
// so and when that request started.
func (t *tx) replay(idem store.Idempotency) (inProgress bool, started time.Time, err error) {
	var (
		fp      string
		status  int
		body    []byte
		created int64
	)
	err = t.queryRow("GetIdempotency", idem.Key).Scan(&fp, &status, &body, &created)
	switch {
	case err == sql.ErrNoRows:
		return false, time.Time{}, nil
	case err != nil:
		return false, time.Time{}, err
	case fp != idem.Fingerprint:
		return false, time.Time{}, store.ErrIdempotencyConflict
	case status == inFlight:
		return true, at(created), nil
	}
	return false, time.Time{}, &store.ReplayError{Status: status, Body: body}
}
