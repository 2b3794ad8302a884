package sqlite

import (
	"context"
	"database/sql"
	"slices"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

var (
	_ driver.Executor   = (*executor)(nil)
	_ driver.ExecutorTx = (*tx)(nil)
)

// executor runs the driver's statements: in a write transaction, on the
// statements prepared on the writer, or outside one, on the read pool,
// which refuses writes.
type executor struct {
	// Common is the statements every SQL driver runs alike.
	sqlfile.Common
	d *Driver
	// tx is the write transaction; nil outside one.
	tx *sql.Tx
	// read runs the statements outside a transaction: the read pool, or
	// one read transaction on it.
	read dbsqlc.DBTX
	// queries runs sqlc's queries: in tx on the writer's prepared
	// statements, else on read. Made once per executor, not per statement.
	queries *dbsqlc.Queries
	// timers are the group timers the write transaction wrote, to be
	// announced once it commits.
	timers []storetype.Timer
}

// tx is one write transaction on the writer.
type tx struct {
	executor
	// leave ends a foreground transaction's turn at the gate.
	leave func()
}

// Executor runs statements on the read pool, outside a transaction.
func (s *Driver) Executor() driver.Executor { return s.reads() }

// reads is the executor on the read pool.
func (s *Driver) reads() *executor { return s.readExecutor(s.r) }

// readExecutor returns the executor on read, outside a transaction.
func (s *Driver) readExecutor(read dbsqlc.DBTX) *executor {
	return withCommon(&executor{d: s, read: read, queries: dbsqlc.New(read)})
}

// withCommon sets e's Common statements to run on e, and returns e.
func withCommon(e *executor) *executor {
	e.Common = sqlfile.NewCommon(e.queryRow)
	return e
}

func (e *executor) stmt(ctx context.Context, name string) *sql.Stmt {
	st, ok := e.d.stmts[name]
	if !ok {
		panic("sqlite: no query named " + name)
	}
	return e.tx.StmtContext(ctx, st)
}

func (e *executor) exec(ctx context.Context, name string, args ...any) (sql.Result, error) {
	if e.tx == nil {
		return e.read.ExecContext(ctx, queries.Get(name), args...)
	}
	return e.stmt(ctx, name).ExecContext(ctx, args...)
}

// execCount runs a write and returns how many rows it changed.
func (e *executor) execCount(ctx context.Context, name string, args ...any) (int64, error) {
	res, err := e.exec(ctx, name, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (e *executor) queryRow(ctx context.Context, name string, args ...any) *sql.Row {
	if e.tx == nil {
		return e.read.QueryRowContext(ctx, queries.Get(name), args...)
	}
	return e.stmt(ctx, name).QueryRowContext(ctx, args...)
}

func (e *executor) query(ctx context.Context, name string, args ...any) (*sql.Rows, error) {
	if e.tx == nil {
		return e.read.QueryContext(ctx, queries.Get(name), args...)
	}
	return e.stmt(ctx, name).QueryContext(ctx, args...)
}

// q runs the queries that sqlc generates: on the statements prepared on
// the writer in a transaction, else on the read pool.
func (e *executor) q() *dbsqlc.Queries { return e.queries }

// PutTimer makes sure the group timer tm exists, once however often the
// transaction puts it.
func (e *executor) PutTimer(ctx context.Context, tm storetype.Timer) error {
	if slices.Contains(e.timers, tm) {
		return nil
	}
	if err := e.q().InsertTimer(ctx, dbsqlc.InsertTimerParams{DueAt: ms(tm.Due), Kind: string(tm.Kind)}); err != nil {
		return err
	}
	e.timers = append(e.timers, tm)
	return nil
}

// EventStored reports whether the outbox holds a record whose ID is id.
// Writers take turns: none stores one before the transaction ends.
func (e *executor) EventStored(ctx context.Context, id string) (bool, error) {
	return e.q().HasEvent(ctx, id)
}

// Count moves p.N coupons of a template into p.State (p.N < 0: out of it).
func (e *executor) Count(ctx context.Context, p driver.CountParams) error {
	return e.q().AddCount(ctx, dbsqlc.AddCountParams{TemplateID: p.TemplateID, Status: p.State.String(), N: p.N})
}

// Begin starts one write transaction on the writer: a user's
// (foreground), which background transactions make way for, or a
// background one (a drain or issuance batch), which starts once no
// user's write waits.
func (s *Driver) Begin(ctx context.Context, background bool) (driver.ExecutorTx, error) {
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
	t := &tx{executor: executor{d: s, tx: sqlTx, queries: s.sqlc.WithTx(sqlTx)}, leave: leave}
	withCommon(&t.executor)
	return t, nil
}

// Commit writes records, commits the transaction and returns the timers
// it wrote.
func (t *tx) Commit(ctx context.Context, records []storetype.Record) ([]storetype.Timer, error) {
	defer t.end()
	if err := t.writeRecords(ctx, records); err != nil {
		return nil, err
	}
	if err := t.tx.Commit(); err != nil {
		return nil, err
	}
	t.d.ckpt.committed()
	return t.timers, nil
}

// Rollback rolls the transaction back unless it committed.
func (t *tx) Rollback() {
	defer t.end()
	t.tx.Rollback()
}

// end lets the gate know the transaction is over, once.
func (t *tx) end() {
	t.leave()
	t.leave = func() {}
}

// Request reads the request recorded under an idempotency key.
func (e *executor) Request(ctx context.Context, key string) (driver.Request, error) {
	r, err := e.q().GetIdempotency(ctx, key)
	return sqlfile.ConvertOne(r, err, func(r dbsqlc.GetIdempotencyRow) (driver.Request, error) {
		return driver.Request{Fingerprint: r.Fingerprint, Status: int(r.Status), Body: r.Body, Created: at(r.CreatedAt)}, nil
	}, interpret)
}

// PutRequest records p.Request under p.Key. Writers take turns, so a
// transaction that read no request under the key finds none there when
// it puts one.
func (e *executor) PutRequest(ctx context.Context, p driver.RequestParams) error {
	r := p.Request
	return e.q().PutIdempotency(ctx, dbsqlc.PutIdempotencyParams{
		Key: p.Key, Fingerprint: r.Fingerprint, Status: int64(r.Status), Body: r.Body, CreatedAt: ms(r.Created),
	})
}

// ForgetRequest deletes the request recorded under p.Key if it was
// created at or before p.Before.
func (e *executor) ForgetRequest(ctx context.Context, p driver.ForgetRequestParams) error {
	return e.q().ForgetIdempotency(ctx, dbsqlc.ForgetIdempotencyParams{Key: p.Key, Before: ms(p.Before)})
}

// FinishRequest stores the response of the request in flight under p.Key.
func (e *executor) FinishRequest(ctx context.Context, p driver.RequestParams) error {
	return e.q().FinishIdempotency(ctx, dbsqlc.FinishIdempotencyParams{
		Status: int64(p.Request.Status), Body: p.Request.Body, Key: p.Key,
	})
}
