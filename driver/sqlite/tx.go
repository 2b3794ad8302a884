package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// tx is one write transaction, the store.Tx the service's rules run in:
// it remembers the group timers it wrote so they can be announced once it
// commits.
var _ driver.DriverTx = (*tx)(nil)

type tx struct {
	sql    *sql.Tx
	ctx    context.Context
	stmts  map[string]*sql.Stmt
	driver *Driver
	// leave ends a foreground transaction's turn at the gate.
	leave  func()
	timers []storetype.Timer
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
	n, err := t.execCount(name, args...)
	return n > 0, err
}

// execCount runs a write and returns how many rows it changed.
func (t *tx) execCount(name string, args ...any) (int64, error) {
	res, err := t.exec(name, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (t *tx) queryRow(name string, args ...any) *sql.Row {
	return t.stmt(name).QueryRowContext(t.ctx, args...)
}

func (t *tx) query(name string, args ...any) (*sql.Rows, error) {
	return t.stmt(name).QueryContext(t.ctx, args...)
}

// PutTimer makes sure the group timer tm exists, once however often the
// transaction puts it.
func (t *tx) PutTimer(tm storetype.Timer) error {
	if slices.Contains(t.timers, tm) {
		return nil
	}
	if _, err := t.exec("InsertTimer", ms(tm.Due), string(tm.Kind)); err != nil {
		return err
	}
	t.timers = append(t.timers, tm)
	return nil
}

// EventStored reports whether the outbox holds a record whose ID is id.
// Writers take turns: none stores one before the transaction ends.
func (t *tx) EventStored(id string) (bool, error) {
	var exists bool
	err := t.queryRow("HasEvent", id).Scan(&exists)
	return exists, err
}

// Count moves n coupons of a template into st (n < 0: out of it).
func (t *tx) Count(templateID string, st coupon.State, n int64) error {
	_, err := t.exec("AddCount", templateID, st.String(), n)
	return err
}

// Begin starts one write transaction on the writer: a user's
// (foreground), which background transactions make way for, or a
// background one (a drain or issuance batch), which starts once no
// user's write waits.
func (s *Driver) Begin(ctx context.Context, background bool) (driver.DriverTx, error) {
	leave := func() {}
	if background {
		s.gate.yield(ctx)
	} else {
		leave = s.gate.enter()
	}
	sqlTx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		leave()
		return nil, err
	}
	return &tx{sql: sqlTx, ctx: ctx, stmts: s.stmts, driver: s, leave: leave}, nil
}

// Commit writes records, commits the transaction and returns the timers
// it wrote.
func (t *tx) Commit(records []storetype.Record) ([]storetype.Timer, error) {
	defer t.end()
	if err := t.writeRecords(records); err != nil {
		return nil, err
	}
	if err := t.sql.Commit(); err != nil {
		return nil, err
	}
	t.driver.ckpt.committed()
	return t.timers, nil
}

// Rollback rolls the transaction back unless it committed.
func (t *tx) Rollback() {
	defer t.end()
	t.sql.Rollback()
}

// end lets the gate know the transaction is over, once.
func (t *tx) end() {
	t.leave()
	t.leave = func() {}
}

// Request reads the request recorded under an idempotency key.
func (t *tx) Request(key string) (driver.Request, error) {
	var (
		r       driver.Request
		created int64
	)
	err := t.queryRow("GetIdempotency", key).Scan(&r.Fingerprint, &r.Status, &r.Body, &created)
	r.Created = at(created)
	return r, interpret(err)
}

// PutRequest records r under key. Writers take turns, so a transaction
// that read no request under key finds none there when it puts one.
func (t *tx) PutRequest(key string, r driver.Request) error {
	_, err := t.exec("PutIdempotency", key, r.Fingerprint, r.Status, r.Body, ms(r.Created))
	return err
}

// ForgetRequest deletes the request recorded under key if it was created
// at or before before.
func (t *tx) ForgetRequest(key string, before time.Time) error {
	_, err := t.exec("ForgetIdempotency", key, ms(before))
	return err
}

// FinishRequest stores the response of the request in flight under key.
func (t *tx) FinishRequest(key string, r driver.Request) error {
	_, err := t.exec("FinishIdempotency", key, r.Status, r.Body)
	return err
}
