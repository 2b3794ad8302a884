package mysql

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"maps"
	"slices"

	"github.com/go-sql-driver/mysql"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// querier runs statements: a transaction, or a pool outside one.
type querier = dbsqlc.DBTX

// executor runs the driver's statements (driver.Executor) in a write
// transaction (driver.ExecutorTx, from Begin) or outside one
// (Driver.Executor), where they run on the read pool and read what holds
// rows in a transaction (a coupon, an order, a SKU's buckets, an
// operation, the due orders) without a lock. In a transaction it buffers
// the counts and timers it writes and flushes them, with the outbox
// records it is handed, at its commit (see flush).
type executor struct {
	// Common is the statements every SQL driver runs alike.
	sqlfile.Common
	// q runs the statements: the transaction's batch, or the read pool.
	q querier
	// tx is the transaction, as a batch; nil outside one.
	tx *batch
	// d is the driver, whose pools run, outside a transaction, the
	// engine's reads (see engine) and the reads of a snapshot or a
	// sequencing of their own.
	d      *Driver
	counts map[countKey]int64
	// slot is the template_counts slot the transaction adds to.
	slot   int
	timers map[storetype.Timer]bool
}

var _ driver.ExecutorTx = (*executor)(nil)

type countKey struct{ template, status string }

// Executor runs statements outside a transaction, on the read pool (the
// reads only the engine makes on the engine pool, see executor.engine).
func (s *Driver) Executor() driver.Executor { return s.onPool() }

// onPool is the executor outside a transaction.
func (s *Driver) onPool() *executor { return withCommon(&executor{q: s.reads, d: s}) }

// withCommon sets e's Common statements to run on e, and returns e.
func withCommon(e *executor) *executor {
	e.Common = sqlfile.NewCommon(e.queryRow)
	return e
}

// engine runs the reads only the engine makes (Timers, Stats, OrdersDue):
// outside a transaction on the engine pool.
func (e *executor) engine() querier {
	if e.tx == nil {
		return e.d.engine
	}
	return e.q
}

func (e *executor) exec(ctx context.Context, name string, args ...any) (sql.Result, error) {
	return e.q.ExecContext(ctx, queries.Get(name), args...)
}

// execList runs a statement whose list (see expand) has n elements.
func (e *executor) execList(ctx context.Context, name string, n int, args ...any) (sql.Result, error) {
	return e.q.ExecContext(ctx, expand(queries.Get(name), n), args...)
}

// execOne runs a guarded write and reports whether it changed a row.
func (e *executor) execOne(ctx context.Context, name string, args ...any) (bool, error) {
	n, err := rowsAffected(e.exec(ctx, name, args...))
	return n > 0, err
}

func (e *executor) queryRow(ctx context.Context, name string, args ...any) *sql.Row {
	return e.q.QueryRowContext(ctx, queries.Get(name), args...)
}

func (e *executor) query(ctx context.Context, name string, args ...any) (*sql.Rows, error) {
	return e.q.QueryContext(ctx, queries.Get(name), args...)
}

// rowsAffected is how many rows a statement changed.
func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// PutTimer makes sure, at flush, that the group timer tm exists.
func (e *executor) PutTimer(ctx context.Context, tm storetype.Timer) error {
	tm.Due = tm.Due.UTC()
	e.timers[tm] = true
	return nil
}

// EventStored reports whether the outbox holds a record whose ID is id.
// Callers hold the row of what the event is about (the order of a late
// payment), so two of them do not race; if two did, the second's flush
// would fail on the ID and its retry find the event.
func (e *executor) EventStored(ctx context.Context, id string) (bool, error) {
	n, err := e.sq().HasEvent(ctx, id)
	return n > 0, err
}

// Count moves, at flush, p.N coupons of a template into p.State (p.N <
// 0: out of it).
func (e *executor) Count(ctx context.Context, p driver.CountParams) error {
	e.counts[countKey{p.TemplateID, p.State.String()}] += p.N
	return nil
}

// flush writes what the transaction buffered, in one round trip with the
// writes its batch holds, in the one order every transaction takes its
// locks in: counts by (template, status), timers by (due, kind), then
// records, which take their feed positions after the commit (see
// Records).
func (e *executor) flush(ctx context.Context, records []storetype.Record) error {
	keys := slices.SortedFunc(maps.Keys(e.counts), func(a, b countKey) int {
		return cmp.Or(cmp.Compare(a.template, b.template), cmp.Compare(a.status, b.status))
	})
	for _, k := range keys {
		if n := e.counts[k]; n != 0 {
			err := e.later().AddCount(ctx, dbsqlc.AddCountParams{N: n, TemplateID: k.template, Status: k.status, Slot: int8(e.slot)})
			if err != nil {
				return err
			}
		}
	}
	if len(e.timers) > 0 {
		var args []any
		for _, tm := range e.sortedTimers() {
			args = append(args, tm.Due, string(tm.Kind))
		}
		e.tx.hold(expand(queries.Get("InsertTimers"), len(e.timers)), args...)
	}
	for _, r := range records {
		if err := e.later().InsertRecord(ctx, dbsqlc.InsertRecordParams{N: int32(r.N), ID: r.ID, Time: r.Time, Body: r.Body}); err != nil {
			return err
		}
	}
	err := e.tx.flush(ctx)
	if isCode(err, errDuplicate) {
		err = errTaken // a once-only event another transaction wrote first
	}
	return err
}

func (e *executor) sortedTimers() []storetype.Timer {
	return slices.SortedFunc(maps.Keys(e.timers), func(a, b storetype.Timer) int {
		return cmp.Or(a.Due.Compare(b.Due), cmp.Compare(a.Kind, b.Kind))
	})
}

// errTaken: a concurrent transaction stored, while this one ran, the
// once-only event this one was about to store. The retry finds it and
// leaves the event be.
var errTaken = errors.New("event taken meanwhile")

// Begin starts one write transaction: a user's on the request pool, a
// background one on the engine pool.
func (s *Driver) Begin(ctx context.Context, background bool) (driver.ExecutorTx, error) {
	db := s.db
	if background {
		db = s.engine
	}
	sqlTx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	b := &batch{tx: sqlTx}
	return withCommon(&executor{q: b, tx: b, d: s, counts: map[countKey]int64{}, timers: map[storetype.Timer]bool{}, slot: sqlfile.CountSlot()}), nil
}

// Commit sends what the transaction buffered and records, commits, and
// returns the timers it wrote.
func (e *executor) Commit(ctx context.Context, records []storetype.Record) ([]storetype.Timer, error) {
	if err := e.flush(ctx, records); err != nil {
		return nil, err
	}
	if err := e.tx.tx.Commit(); err != nil {
		return nil, err
	}
	return e.sortedTimers(), nil
}

// Rollback rolls the transaction back unless it committed.
func (e *executor) Rollback() { e.tx.tx.Rollback() }

// Classify turns a write transaction's error into a store error; one the
// server chose as a deadlock's victim, or whose once-only event was taken
// meanwhile (errTaken), is worth running again, and so is one that met
// an outage (storetype.IsUnavailable, or unavailable).
func (s *Driver) Classify(err error) (error, bool) {
	if storetype.IsUnavailable(err) || unavailable(err) {
		return &storetype.UnavailableError{Err: err}, true
	}
	return interpret(err), isCode(err, errDeadlock) || errors.Is(err, errTaken)
}

// unavailable reports whether err says the server cannot take the
// transaction now: the connection broke (the driver's ErrInvalidConn), or
// the server answered 1053 ER_SERVER_SHUTDOWN, 1047 ER_UNKNOWN_COM_ERROR
// (a Galera node whose WSREP is not ready), 1290
// ER_OPTION_PREVENTS_STATEMENT (--read-only, a node being moved away from
// behind a proxy), or, from a proxy, 2006 CR_SERVER_GONE_ERROR or 2013
// CR_SERVER_LOST. Classify asks it beside storetype.IsUnavailable, which
// sees refused and reset connections; the service classifies every
// error it returns, reads included, so the loops and the API see these
// as outages too.
func unavailable(err error) bool {
	for _, code := range []uint16{1053, 1047, 1290, 2006, 2013} {
		if isCode(err, code) {
			return true
		}
	}
	return errors.Is(err, mysql.ErrInvalidConn)
}

// Busy is false: MySQL's writers do not queue on one writer.
func (s *Driver) Busy() bool { return false }

// Request reads the request recorded under an idempotency key.
func (e *executor) Request(ctx context.Context, key string) (driver.Request, error) {
	r, err := e.sq().GetIdempotency(ctx, key)
	return sqlfile.ConvertOne(r, err, func(r dbsqlc.GetIdempotencyRow) (driver.Request, error) {
		return driver.Request{Fingerprint: r.Fingerprint, Status: int(r.Status), Body: r.Body, Created: r.CreatedAt.UTC()}, nil
	}, interpret)
}

// PutRequest records p.Request under p.Key: driver.ErrRequestTaken if a
// concurrent transaction recorded a request under it meanwhile.
func (e *executor) PutRequest(ctx context.Context, p driver.RequestParams) error {
	r := p.Request
	err := e.sq().PutIdempotency(ctx, dbsqlc.PutIdempotencyParams{
		IdemKey: p.Key, Fingerprint: r.Fingerprint, Status: int32(r.Status), Body: r.Body, CreatedAt: r.Created,
	})
	if isCode(err, errDuplicate) {
		err = driver.ErrRequestTaken
	}
	return err
}

// ForgetRequest deletes the request recorded under p.Key if it was
// created at or before p.Before.
func (e *executor) ForgetRequest(ctx context.Context, p driver.ForgetRequestParams) error {
	return e.sq().ForgetIdempotency(ctx, dbsqlc.ForgetIdempotencyParams{IdemKey: p.Key, Before: p.Before})
}

// FinishRequest stores the response of the request in flight under p.Key.
func (e *executor) FinishRequest(ctx context.Context, p driver.RequestParams) error {
	return e.sq().FinishIdempotency(ctx, dbsqlc.FinishIdempotencyParams{
		Status: int32(p.Request.Status), Body: p.Request.Body, IdemKey: p.Key,
	})
}
