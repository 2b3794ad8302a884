package outagetest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"testing"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
)

// Terminator returns a function that ends every connection the store at
// b.URL holds, on the server's side, as an administrator, a restart or a
// failover's fencing does, and reports how many it ended: on PostgreSQL
// pg_terminate_backend, whose backend answers 57P01 admin_shutdown, on
// the connections of the schema's application_name (see pgtest.SchemaURL);
// on MySQL/MariaDB KILL CONNECTION on those of the store's database. It
// runs on a connection of its own, straight to the server, closed when t
// ends; it may be called from one goroutine at a time.
func (b Backend) Terminator(t testing.TB) func(ctx context.Context) (int, error) {
	t.Helper()
	u, err := url.Parse(b.URL)
	if err != nil {
		t.Fatalf("%s: %v", b.Name, err)
	}
	if b.Name == "postgres" {
		admin := pgtest.Connect(t, os.Getenv("LAPSE_TEST_POSTGRES"))
		app := u.Query().Get("application_name")
		return func(ctx context.Context) (int, error) {
			var n int
			err := admin.QueryRow(ctx, "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()", app).Scan(&n)
			return n, err
		}
	}
	admin := mysqltest.Raw(t, os.Getenv("LAPSE_TEST_MYSQL"))
	admin.SetMaxOpenConns(1)
	database := u.Path[1:]
	return func(ctx context.Context) (int, error) {
		rows, err := admin.QueryContext(ctx, "SELECT id FROM information_schema.processlist WHERE db = ?", database)
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return 0, err
			}
			ids = append(ids, id)
		}
		if err := rows.Err(); err != nil {
			return 0, err
		}
		n := 0
		for _, id := range ids {
			var gone *gomysql.MySQLError
			_, err := admin.ExecContext(ctx, fmt.Sprintf("KILL CONNECTION %d", id))
			switch {
			case errors.As(err, &gone) && gone.Number == 1094: // ended meanwhile: unknown thread id
			case err != nil:
				return n, err
			default:
				n++
			}
		}
		return n, nil
	}
}
