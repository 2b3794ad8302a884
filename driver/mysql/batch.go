package mysql

import (
	"context"
	"database/sql"
	"errors"
	"strings"
)

// batch runs the statements of one write transaction, holding back its
// blind writes (writes whose outcome the transaction does not read: an
// order's row, a user's last activity, counts, timers, records) and
// sending them in the round trip of its next statement, or of its flush
// before the commit, as one multi-statement query. The writes keep their
// order, and a failing one stops the query there with its error, which
// the statement that carried it returns.
//
// A flash sale's order is then four round trips (begin; the order's row,
// the user and the guarded stock update; the timer and the event; the
// commit) where it was seven, and a hot SKU's bucket is held for the last
// two (see createOrderIn).
type batch struct {
	tx   *sql.Tx
	held []string
	args []any
}

var _ querier = (*batch)(nil)

// batchSep ends each statement of a batch but its last, on a line of its
// own, so that a comment at the end of a statement cannot swallow it.
const batchSep = "\n;\n"

// hold adds a blind write to the next round trip.
func (b *batch) hold(query string, args ...any) {
	b.held = append(b.held, strings.TrimRight(strings.TrimSpace(query), ";"))
	b.args = append(b.args, args...)
}

// with returns query, preceded by the held writes, and its arguments, and
// empties the batch.
func (b *batch) with(query string, args []any) (string, []any) {
	if len(b.held) == 0 {
		return query, args
	}
	query = strings.Join(append(b.held, query), batchSep)
	args = append(b.args, args...)
	b.held, b.args = nil, nil
	return query, args
}

// flush sends the held writes, if any, in a round trip of their own.
func (b *batch) flush(ctx context.Context) error {
	if len(b.held) == 0 {
		return nil
	}
	_, err := b.tx.ExecContext(ctx, strings.Join(b.held, batchSep), b.args...)
	b.held, b.args = nil, nil
	return err
}

func (b *batch) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	query, args = b.with(query, args)
	return b.tx.ExecContext(ctx, query, args...)
}

func (b *batch) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	query, args = b.with(query, args)
	return b.tx.QueryContext(ctx, query, args...)
}

func (b *batch) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	query, args = b.with(query, args)
	return b.tx.QueryRowContext(ctx, query, args...)
}

// PrepareContext is refused: lapse's statements are interpolated, never
// prepared (see Config).
func (b *batch) PrepareContext(context.Context, string) (*sql.Stmt, error) {
	return nil, errors.New("mysql: a batch prepares no statements")
}

// holder is a batch's blind writes, as the querier sqlc's writes run on.
type holder struct{ *batch }

func (h holder) ExecContext(_ context.Context, query string, args ...any) (sql.Result, error) {
	h.hold(query, args...)
	return heldResult{}, nil
}

// heldResult is a held write's result, which no caller reads.
type heldResult struct{}

func (heldResult) LastInsertId() (int64, error) { return 0, errHeld }
func (heldResult) RowsAffected() (int64, error) { return 0, errHeld }

var errHeld = errors.New("mysql: a held write's result is not known before it runs")
