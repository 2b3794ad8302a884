package postgres

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// executor runs the driver's statements: in a write transaction (Begin),
// or outside one on the read pool (Driver.Executor), reads only.
type executor struct {
	// Common is the statements every SQL driver runs alike.
	sqlfile.Common
	// q runs the statements: the transaction, or the read pool.
	q querier
	// engine runs the reads only the engine makes (OrdersDue, Timers,
	// Stats): the transaction, or outside one the engine pool, so that
	// they never take a connection the users read on.
	engine querier
	// tx is the transaction, nil outside one.
	tx *txn
}

// querier runs statements: a pgx.Tx, or a pool outside a transaction.
type querier interface {
	dbsqlc.DBTX
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
	Begin(ctx context.Context) (pgx.Tx, error)
}

// txn is one write transaction. What it adds to rows other transactions
// share (group timers, template counts) and its writes under idempotency
// keys it buffers, and flush writes them, with the outbox records it is
// handed, just before the commit.
type txn struct {
	pg pgx.Tx
	// ctx is Begin's, for Rollback, which is handed none.
	ctx    context.Context
	timers []storetype.Timer
	counts map[countKey]int64
	// slot is the template_counts slot the transaction adds to.
	slot int
	// requests holds the writes under idempotency keys, sent in order
	// first thing at flush.
	requests []statement
}

// statement is one named query and its arguments.
type statement struct {
	name string
	args []any
}

// countKey names one row of template_counts.
type countKey struct {
	templateID string
	status     string
}

var _ driver.ExecutorTx = (*executor)(nil)

// errNoTx is the error of a buffered write outside a transaction:
// Driver.Executor only reads.
var errNoTx = errors.New("postgres: a buffered write outside a transaction")

// Begin starts one write transaction: a user's on the request pool, a
// background one on the engine pool.
func (s *Driver) Begin(ctx context.Context, background bool) (driver.ExecutorTx, error) {
	pool := s.pool
	if background {
		pool = s.engine
	}
	pgTx, err := pool.BeginTx(ctx, s.writeTx)
	if err != nil {
		return nil, err
	}
	return withCommon(&executor{q: pgTx, engine: pgTx, tx: &txn{pg: pgTx, ctx: ctx, slot: sqlfile.CountSlot()}}), nil
}

// Executor runs reads outside a transaction, on the read pool.
func (s *Driver) Executor() driver.Executor {
	return withCommon(&executor{q: s.reads, engine: s.engine})
}

// withCommon sets e's Common statements to run on e, and returns e.
func withCommon(e *executor) *executor {
	e.Common = sqlfile.NewCommon(e.queryRow)
	return e
}

func (e *executor) exec(ctx context.Context, name string, args ...any) (pgconn.CommandTag, error) {
	return e.q.Exec(ctx, queries.Get(name), args...)
}

// execOne runs a guarded write and reports whether it changed a row.
func (e *executor) execOne(ctx context.Context, name string, args ...any) (bool, error) {
	tag, err := e.exec(ctx, name, args...)
	return tag.RowsAffected() > 0, err
}

// execCount runs a write and returns how many rows it changed.
func (e *executor) execCount(ctx context.Context, name string, args ...any) (int64, error) {
	tag, err := e.exec(ctx, name, args...)
	return tag.RowsAffected(), err
}

func (e *executor) queryRow(ctx context.Context, name string, args ...any) pgx.Row {
	return e.q.QueryRow(ctx, queries.Get(name), args...)
}

func (e *executor) query(ctx context.Context, name string, args ...any) (pgx.Rows, error) {
	return e.q.Query(ctx, queries.Get(name), args...)
}

// sqlc runs the queries that sqlc generates.
func (e *executor) sqlc() *dbsqlc.Queries { return dbsqlc.New(e.q) }

// snapshot returns a querier whose reads share one snapshot, and end,
// which ends it: outside a transaction, a read-only REPEATABLE READ
// transaction of the read pool; in one, the transaction itself, whose
// reads at READ COMMITTED each see what committed before it.
func (e *executor) snapshot(ctx context.Context) (querier, func(), error) {
	pool, ok := e.q.(*pgxpool.Pool)
	if !ok {
		return e.q, func() {}, nil
	}
	rtx, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, nil, err
	}
	return rtx, func() { rtx.Rollback(context.WithoutCancel(ctx)) }, nil
}

// PutTimer makes sure the group timer tm exists once the transaction
// commits.
func (e *executor) PutTimer(_ context.Context, tm storetype.Timer) error {
	if e.tx == nil {
		return errNoTx
	}
	if !slices.Contains(e.tx.timers, tm) {
		e.tx.timers = append(e.tx.timers, tm)
	}
	return nil
}

// Count moves p.N coupons of a template into p.State (p.N < 0: out of it)
// when the transaction commits.
func (e *executor) Count(_ context.Context, p driver.CountParams) error {
	if e.tx == nil {
		return errNoTx
	}
	if e.tx.counts == nil {
		e.tx.counts = map[countKey]int64{}
	}
	e.tx.counts[countKey{p.TemplateID, p.State.String()}] += p.N
	return nil
}

// EventStored reports whether the outbox holds a record whose ID is id,
// in a transaction holding a lock on the ID until it ends: writers of one
// ID queue on it until the first commits.
func (e *executor) EventStored(ctx context.Context, id string) (bool, error) {
	if e.tx != nil {
		if err := e.sqlc().LockEventID(ctx, id); err != nil {
			return false, err
		}
	}
	return e.sqlc().EventExists(ctx, id)
}

// flush sends what the transaction buffered, in one round trip: the
// writes under idempotency keys, timers and counts, each sorted so that
// transactions lock shared rows in one order, and records, which take
// their feed positions after the commit (see Records).
func (t *txn) flush(ctx context.Context, records []storetype.Record) error {
	b := &pgx.Batch{}
	for _, st := range t.requests {
		b.Queue(queries.Get(st.name), st.args...)
	}
	if len(t.timers) > 0 {
		ts := slices.SortedFunc(slices.Values(t.timers), func(a, b storetype.Timer) int {
			return cmp.Or(a.Due.Compare(b.Due), cmp.Compare(a.Kind, b.Kind))
		})
		dues, kinds := make([]time.Time, len(ts)), make([]string, len(ts))
		for i, tm := range ts {
			dues[i], kinds[i] = tm.Due, string(tm.Kind)
		}
		b.Queue(queries.Get("InsertTimers"), dues, kinds)
	}
	if keys := t.countKeys(); len(keys) > 0 {
		ids, states, ns := make([]string, len(keys)), make([]string, len(keys)), make([]int64, len(keys))
		for i, k := range keys {
			ids[i], states[i], ns[i] = k.templateID, k.status, t.counts[k]
		}
		b.Queue(queries.Get("AddCounts"), ids, states, ns, t.slot)
	}
	for _, r := range records {
		b.Queue(queries.Get("InsertRecord"), r.N, r.ID, r.Time, string(r.Body))
	}
	if b.Len() == 0 {
		return nil
	}
	return t.pg.SendBatch(ctx, b).Close()
}

// countKeys returns the count rows that change, in lock order.
func (t *txn) countKeys() []countKey {
	var keys []countKey
	for k, n := range t.counts {
		if n != 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b countKey) int {
		return cmp.Or(cmp.Compare(a.templateID, b.templateID), cmp.Compare(a.status, b.status))
	})
	return keys
}

// Commit sends what the transaction buffered and records, commits, and
// returns the timers it wrote.
func (e *executor) Commit(ctx context.Context, records []storetype.Record) ([]storetype.Timer, error) {
	if err := e.tx.flush(ctx, records); err != nil {
		return nil, err
	}
	if err := e.tx.pg.Commit(ctx); err != nil {
		return nil, err
	}
	return e.tx.timers, nil
}

// Rollback rolls the transaction back unless it committed.
func (e *executor) Rollback() { e.tx.pg.Rollback(context.WithoutCancel(e.tx.ctx)) }

// Classify turns a write transaction's error into a store error; a
// transaction PostgreSQL chose as a deadlock's victim (two orders locking
// the same coupons in other orders, or two instances' timeout batches
// taking the same SKUs in other orders, say) is worth running again, and
// so is one that met an outage (storetype.ErrUnavailable, see
// unavailable).
func (s *Driver) Classify(err error) (error, bool) {
	var pgErr *pgconn.PgError
	if unavailable(err) {
		return &storetype.UnavailableError{Err: err}, true
	}
	return interpret(err), errors.As(err, &pgErr) && pgErr.Code == "40P01" // deadlock_detected
}

// unavailable reports whether err says the database cannot take the
// transaction now: no connection could be made (pgconn.ConnectError:
// refused, the connect timeout, or target_session_attrs found no
// primary), the connection broke (storetype.IsUnavailable, or
// pgconn.ErrConnClosed: pgx closed it when its socket went away), or the
// server answered that it is going away or not ready: class 08
// (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
// 57P03 cannot_connect_now, 57P05 idle_session_timeout, or 25006
// read_only_sql_transaction, a standby reached during a failover.
func unavailable(err error) bool {
	var pgErr *pgconn.PgError
	var connErr *pgconn.ConnectError
	switch {
	case errors.As(err, &pgErr):
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P") && pgErr.Code != "57P04" || pgErr.Code == "25006"
	case errors.As(err, &connErr), errors.Is(err, pgconn.ErrConnClosed):
		return true
	}
	return storetype.IsUnavailable(err)
}

// Busy is false: PostgreSQL's writers do not queue on one writer.
func (s *Driver) Busy() bool { return false }

// Request reads the request recorded under an idempotency key.
func (e *executor) Request(ctx context.Context, key string) (driver.Request, error) {
	r, err := e.sqlc().GetIdempotency(ctx, key)
	return driver.Request{Fingerprint: r.Fingerprint, Status: int(r.Status), Body: r.Body, Created: r.CreatedAt}, interpret(err)
}

// buffer queues a write under an idempotency key for the flush.
func (e *executor) buffer(name string, args ...any) error {
	if e.tx == nil {
		return errNoTx
	}
	e.tx.requests = append(e.tx.requests, statement{name, args})
	return nil
}

// PutRequest records p.Request under p.Key at flush. A request under the
// key that a concurrent transaction has yet to commit makes the flush
// wait for it, then fail with driver.ErrRequestTaken if it committed.
func (e *executor) PutRequest(_ context.Context, p driver.RequestParams) error {
	r := p.Request
	return e.buffer("PutIdempotency", p.Key, r.Fingerprint, r.Status, r.Body, r.Created)
}

// FinishRequest stores, at flush, the response of the request in flight
// under p.Key.
func (e *executor) FinishRequest(_ context.Context, p driver.RequestParams) error {
	return e.buffer("FinishIdempotency", p.Key, p.Request.Status, p.Request.Body)
}

// ForgetRequest deletes, at flush, the request recorded under p.Key if it
// was created at or before p.Before.
func (e *executor) ForgetRequest(_ context.Context, p driver.ForgetRequestParams) error {
	return e.buffer("ForgetIdempotency", p.Key, p.Before)
}
