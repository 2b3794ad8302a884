package mysql_test

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"testing"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/lapsehq/lapse/driver/mysql"
)

// batchTx opens a transaction on a fresh database holding an empty table
// t (k a key, v a value), and its batch.
func batchTx(t *testing.T) (context.Context, *sql.DB, *sql.Tx, *mysql.Batch) {
	ctx := t.Context()
	db := rawDB(t, freshDB(t))
	if _, err := db.ExecContext(ctx, "CREATE TABLE t (k INT PRIMARY KEY, v INT NOT NULL)"); err != nil {
		t.Fatalf("create: %v", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	t.Cleanup(func() { tx.Rollback() })
	return ctx, db, tx, mysql.NewBatch(tx)
}

// rowsOf reads t's rows as k, v pairs in key order.
func rowsOf(t *testing.T, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) [][2]int {
	rows, err := q.QueryContext(t.Context(), "SELECT k, v FROM t ORDER BY k")
	if err != nil {
		t.Fatalf("select: %v", err)
	}
	defer rows.Close()
	var got [][2]int
	for rows.Next() {
		var kv [2]int
		if err := rows.Scan(&kv[0], &kv[1]); err != nil {
			t.Fatalf("scan: %v", err)
		}
		got = append(got, kv)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("rows: %v", err)
	}
	return got
}

// TestBatchCarriesHeldWrites: held writes run, in their order, in the
// round trip of the next statement, whose result is its own.
func TestBatchCarriesHeldWrites(t *testing.T) {
	ctx, db, tx, b := batchTx(t)
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?) -- a comment ends the line", 1, 10)
	b.Hold("UPDATE t SET v = v + ? WHERE k = ?;", 5, 1) // a trailing semicolon is dropped
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?), (?, ?)", 2, 20, 3, 30)
	res, err := b.ExecContext(ctx, "UPDATE t SET v = v + 1 WHERE k >= ?", 2)
	if err != nil {
		t.Fatalf("exec: %v", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 2 {
		t.Fatalf("rows affected: got %d, %v; want the carrying statement's 2", n, err)
	}
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?)", 4, 40)
	var sum int
	if err := b.QueryRowContext(ctx, "SELECT SUM(v) FROM t WHERE k <= ?", 4).Scan(&sum); err != nil {
		t.Fatalf("query row: %v", err)
	}
	if sum != 15+21+31+40 {
		t.Fatalf("sum: got %d, want %d: a query sees the writes it carries", sum, 15+21+31+40)
	}
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?)", 5, 50)
	if got, want := rowsOf(t, b), [][2]int{{1, 15}, {2, 21}, {3, 31}, {4, 40}, {5, 50}}; !slices.Equal(got, want) {
		t.Fatalf("rows in the transaction: got %v, want %v", got, want)
	}
	if got := rowsOf(t, db); len(got) != 0 {
		t.Fatalf("rows outside it before the commit: got %v, want none", got)
	}
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?)", 6, 60)
	if err := b.Flush(ctx); err != nil {
		t.Fatalf("flush: %v", err)
	}
	if err := b.Flush(ctx); err != nil {
		t.Fatalf("flush of nothing: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("commit: %v", err)
	}
	if got := rowsOf(t, db); len(got) != 6 || got[5] != [2]int{6, 60} {
		t.Fatalf("rows after the commit: got %v, want 6, the flushed one last", got)
	}
}

// TestBatchStopsAtAFailedWrite: a held write that fails is the error of
// the statement that carries it, and neither the writes held after it nor
// that statement run.
func TestBatchStopsAtAFailedWrite(t *testing.T) {
	ctx, _, tx, b := batchTx(t)
	if _, err := tx.ExecContext(ctx, "INSERT INTO t (k, v) VALUES (1, 1)"); err != nil {
		t.Fatalf("insert: %v", err)
	}
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?)", 2, 2)
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?)", 1, 100) // a duplicate
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?)", 3, 3)
	_, err := b.ExecContext(ctx, "UPDATE t SET v = 7")
	var my *gomysql.MySQLError
	if !errors.As(err, &my) || my.Number != 1062 {
		t.Fatalf("exec: got %v, want the held duplicate's error 1062", err)
	}
	if got, want := rowsOf(t, b), [][2]int{{1, 1}, {2, 2}}; !slices.Equal(got, want) {
		t.Fatalf("rows: got %v, want %v: the writes before the failure only", got, want)
	}
	b.Hold("INSERT INTO t (k, v) VALUES (?, ?)", 1, 100)
	if err := b.Flush(ctx); !errors.As(err, &my) || my.Number != 1062 {
		t.Fatalf("flush: got %v, want the held duplicate's error 1062", err)
	}
	if err := b.Flush(ctx); err != nil {
		t.Fatalf("flush after a failed one: got %v, want nothing held", err)
	}
}
