package postgres

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// tx is one write transaction, the store.Tx the service's rules run in.
// What it adds to rows other transactions share (group timers, template
// counts) it buffers, and flush writes them, with the outbox records it
// is handed, just before the commit.
type tx struct {
	pg     pgx.Tx
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

var _ driver.DriverTx = (*tx)(nil)

// countKey names one row of template_counts.
type countKey struct {
	templateID string
	status     string
}

func (t *tx) exec(name string, args ...any) (pgconn.CommandTag, error) {
	return t.pg.Exec(t.ctx, queries.Get(name), args...)
}

// execOne runs a guarded write and reports whether it changed a row.
func (t *tx) execOne(name string, args ...any) (bool, error) {
	tag, err := t.exec(name, args...)
	return tag.RowsAffected() > 0, err
}

func (t *tx) queryRow(name string, args ...any) pgx.Row {
	return t.pg.QueryRow(t.ctx, queries.Get(name), args...)
}

func (t *tx) query(name string, args ...any) (pgx.Rows, error) {
	return t.pg.Query(t.ctx, queries.Get(name), args...)
}

// PutTimer makes sure the group timer tm exists once the transaction
// commits.
func (t *tx) PutTimer(tm storetype.Timer) error {
	if !slices.Contains(t.timers, tm) {
		t.timers = append(t.timers, tm)
	}
	return nil
}

// EventStored reports whether the outbox holds a record whose ID is id,
// holding a lock on the ID until the transaction ends: writers of one ID
// queue on it until the first commits.
func (t *tx) EventStored(id string) (bool, error) {
	if _, err := t.exec("LockEventID", id); err != nil {
		return false, err
	}
	var exists bool
	err := t.queryRow("EventExists", id).Scan(&exists)
	return exists, err
}

// Count moves n coupons of a template into st (n < 0: out of it) when the
// transaction commits.
func (t *tx) Count(templateID string, st coupon.State, n int64) error {
	if t.counts == nil {
		t.counts = map[countKey]int64{}
	}
	t.counts[countKey{templateID, st.String()}] += n
	return nil
}

// flush sends what the transaction buffered, in one round trip: the
// writes under idempotency keys, timers and counts, each sorted so that
// transactions lock shared rows in one order, and records, which take
// their feed positions after the commit (see Records).
func (t *tx) flush(records []storetype.Record) error {
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
	return t.pg.SendBatch(t.ctx, b).Close()
}

// countKeys returns the count rows that change, in lock order.
func (t *tx) countKeys() []countKey {
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

// Begin starts one write transaction: a user's on the request pool, a
// background one on the engine pool.
func (s *Driver) Begin(ctx context.Context, background bool) (driver.DriverTx, error) {
	pool := s.pool
	if background {
		pool = s.engine
	}
	pgTx, err := pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &tx{pg: pgTx, ctx: ctx, slot: sqlfile.CountSlot()}, nil
}

// Commit sends what the transaction buffered and records, commits, and
// returns the timers it wrote.
func (t *tx) Commit(records []storetype.Record) ([]storetype.Timer, error) {
	if err := t.flush(records); err != nil {
		return nil, err
	}
	if err := t.pg.Commit(t.ctx); err != nil {
		return nil, err
	}
	return t.timers, nil
}

// Rollback rolls the transaction back unless it committed.
func (t *tx) Rollback() { t.pg.Rollback(context.WithoutCancel(t.ctx)) }

// Classify turns a write transaction's error into a store error; a
// transaction PostgreSQL chose as a deadlock's victim (two orders locking
// the same coupons in other orders, or two instances' timeout batches
// taking the same SKUs in other orders, say) is worth running again.
func (s *Driver) Classify(err error) (error, bool) {
	var pgErr *pgconn.PgError
	return interpret(err), errors.As(err, &pgErr) && pgErr.Code == "40P01" // deadlock_detected
}

// Busy is false: PostgreSQL's writers do not queue on one writer.
func (s *Driver) Busy() bool { return false }

// Request reads the request recorded under an idempotency key.
func (t *tx) Request(key string) (driver.Request, error) {
	var r driver.Request
	err := t.queryRow("GetIdempotency", key).Scan(&r.Fingerprint, &r.Status, &r.Body, &r.Created)
	return r, interpret(err)
}

// PutRequest records r under key at flush. A request under key that a
// concurrent transaction has yet to commit makes the flush wait for it,
// then fail with store.ErrRequestTaken if it committed.
func (t *tx) PutRequest(key string, r driver.Request) error {
	t.requests = append(t.requests, statement{"PutIdempotency", []any{key, r.Fingerprint, r.Status, r.Body, r.Created}})
	return nil
}

// FinishRequest stores, at flush, the response of the request in flight
// under key.
func (t *tx) FinishRequest(key string, r driver.Request) error {
	t.requests = append(t.requests, statement{"FinishIdempotency", []any{key, r.Status, r.Body}})
	return nil
}

// ForgetRequest deletes, at flush, the request recorded under key if it
// was created at or before before.
func (t *tx) ForgetRequest(key string, before time.Time) error {
	t.requests = append(t.requests, statement{"ForgetIdempotency", []any{key, before}})
	return nil
}
