package mysql

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// tx is one write transaction, the store.Tx the service's rules run in.
// It buffers the counts and timers it writes and flushes them, with the
// outbox records it is handed, at its end (see flush).
type tx struct {
	sql    *sql.Tx
	ctx    context.Context
	counts map[countKey]int64
	// slot is the template_counts slot the transaction adds to.
	slot   int
	timers map[storetype.Timer]bool
}

var _ driver.DriverTx = (*tx)(nil)

type countKey struct{ template, status string }

func (t *tx) exec(name string, args ...any) (sql.Result, error) {
	return t.sql.ExecContext(t.ctx, queries.Get(name), args...)
}

// execList runs a statement whose list (see expand) has n elements.
func (t *tx) execList(name string, n int, args ...any) (sql.Result, error) {
	return t.sql.ExecContext(t.ctx, expand(queries.Get(name), n), args...)
}

// execCount runs a statement whose list (see expand) has n elements
// and returns how many rows it changed.
func (t *tx) execCount(name string, n int, args ...any) (int64, error) {
	res, err := t.execList(name, n, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// listArgs returns the arguments of a statement whose list (see expand)
// comes last: args, then list's elements.
func listArgs(list []string, args ...any) []any {
	for _, v := range list {
		args = append(args, v)
	}
	return args
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
	return t.sql.QueryRowContext(t.ctx, queries.Get(name), args...)
}

func (t *tx) query(name string, args ...any) (*sql.Rows, error) {
	return t.sql.QueryContext(t.ctx, queries.Get(name), args...)
}

// queryList runs a query whose list (see expand) has n elements.
func (t *tx) queryList(name string, n int, args ...any) (*sql.Rows, error) {
	return t.sql.QueryContext(t.ctx, expand(queries.Get(name), n), args...)
}

// PutTimer makes sure, at flush, that the group timer tm exists.
func (t *tx) PutTimer(tm storetype.Timer) error {
	tm.Due = tm.Due.UTC()
	t.timers[tm] = true
	return nil
}

// EventStored reports whether the outbox holds a record whose ID is id.
// Callers hold the row of what the event is about (the order of a late
// payment), so two of them do not race; if two did, the second's flush
// would fail on the ID and its retry find the event.
func (t *tx) EventStored(id string) (bool, error) {
	var n int
	err := t.queryRow("HasEvent", id).Scan(&n)
	return n > 0, err
}

// Count moves, at flush, n coupons of a template into st (n < 0: out of
// it).
func (t *tx) Count(templateID string, st coupon.State, n int64) error {
	t.counts[countKey{templateID, st.String()}] += n
	return nil
}

// flush writes what the transaction buffered, in the one order every
// transaction takes its locks in: counts by (template, status), timers by
// (due, kind), then records, which take their feed positions after the
// commit (see Records).
func (t *tx) flush(records []storetype.Record) error {
	keys := slices.SortedFunc(maps.Keys(t.counts), func(a, b countKey) int {
		return cmp.Or(cmp.Compare(a.template, b.template), cmp.Compare(a.status, b.status))
	})
	for _, k := range keys {
		if n := t.counts[k]; n != 0 {
			if _, err := t.exec("AddCount", n, k.template, k.status, t.slot); err != nil {
				return err
			}
		}
	}
	if len(t.timers) > 0 {
		var args []any
		for _, tm := range t.sortedTimers() {
			args = append(args, tm.Due, string(tm.Kind))
		}
		if _, err := t.execList("InsertTimers", len(t.timers), args...); err != nil {
			return err
		}
	}
	for _, r := range records {
		if _, err := t.exec("InsertRecord", r.N, r.ID, r.Time, r.Body); err != nil {
			if isCode(err, errDuplicate) {
				err = errTaken // a once-only event another transaction wrote first
			}
			return err
		}
	}
	return nil
}

func (t *tx) sortedTimers() []storetype.Timer {
	return slices.SortedFunc(maps.Keys(t.timers), func(a, b storetype.Timer) int {
		return cmp.Or(a.Due.Compare(b.Due), cmp.Compare(a.Kind, b.Kind))
	})
}

// errTaken: a concurrent transaction stored, while this one ran, the
// once-only event this one was about to store. The retry finds it and
// leaves the event be.
var errTaken = errors.New("event taken meanwhile")

// Begin starts one write transaction: a user's on the request pool, a
// background one on the engine pool.
func (s *Driver) Begin(ctx context.Context, background bool) (driver.DriverTx, error) {
	db := s.db
	if background {
		db = s.engine
	}
	sqlTx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &tx{sql: sqlTx, ctx: ctx, counts: map[countKey]int64{}, timers: map[storetype.Timer]bool{}, slot: sqlfile.CountSlot()}, nil
}

// Commit sends what the transaction buffered and records, commits, and
// returns the timers it wrote.
func (t *tx) Commit(records []storetype.Record) ([]storetype.Timer, error) {
	if err := t.flush(records); err != nil {
		return nil, err
	}
	if err := t.sql.Commit(); err != nil {
		return nil, err
	}
	return t.sortedTimers(), nil
}

// Rollback rolls the transaction back unless it committed.
func (t *tx) Rollback() { t.sql.Rollback() }

// Classify turns a write transaction's error into a store error; one the
// server chose as a deadlock's victim, or whose once-only event was taken
// meanwhile (errTaken), is worth running again.
func (s *Driver) Classify(err error) (error, bool) {
	return interpret(err), isCode(err, errDeadlock) || errors.Is(err, errTaken)
}

// Busy is false: MySQL's writers do not queue on one writer.
func (s *Driver) Busy() bool { return false }

// Request reads the request recorded under an idempotency key.
func (t *tx) Request(key string) (driver.Request, error) {
	var r driver.Request
	err := t.queryRow("GetIdempotency", key).Scan(&r.Fingerprint, &r.Status, &r.Body, &r.Created)
	r.Created = r.Created.UTC()
	return r, interpret(err)
}

// PutRequest records r under key: store.ErrRequestTaken if a concurrent
// transaction recorded a request under it meanwhile.
func (t *tx) PutRequest(key string, r driver.Request) error {
	_, err := t.exec("PutIdempotency", key, r.Fingerprint, r.Status, r.Body, r.Created)
	if isCode(err, errDuplicate) {
		err = driver.ErrRequestTaken
	}
	return err
}

// ForgetRequest deletes the request recorded under key if it was created
// at or before before.
func (t *tx) ForgetRequest(key string, before time.Time) error {
	_, err := t.exec("ForgetIdempotency", key, before)
	return err
}

// FinishRequest stores the response of the request in flight under key.
func (t *tx) FinishRequest(key string, r driver.Request) error {
	_, err := t.exec("FinishIdempotency", r.Status, r.Body, key)
	return err
}
