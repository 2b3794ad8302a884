package cli

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	driver "github.com/go-sql-driver/mysql"

	"github.com/lapsehq/lapse/bench"
	"github.com/lapsehq/lapse/driver/mysql"
)

// mysqlTarget is the bench target of a new MySQL or MariaDB database, the
// one storeURL names, which it creates. Neither server copies a database
// whole, so Save copies it table by table into <name>_seed (CREATE TABLE
// … LIKE, INSERT … SELECT) and Restore copies that back; the cleanup
// drops both.
func mysqlTarget(ctx context.Context, storeURL string) (bench.Target, func(), error) {
	cfg, err := mysql.Config(storeURL)
	if err != nil {
		return bench.Target{}, nil, fmt.Errorf("--store: %w", err)
	}
	name := cfg.DBName
	admin := cfg.Clone()
	admin.DBName = ""
	conn, err := driver.NewConnector(admin)
	if err != nil {
		return bench.Target{}, nil, fmt.Errorf("--store: %w", err)
	}
	db := sql.OpenDB(conn)
	var exists bool
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) > 0 FROM information_schema.schemata WHERE schema_name = ?", name).Scan(&exists); err != nil {
		db.Close()
		return bench.Target{}, nil, fmt.Errorf("--store: %w", err)
	}
	if exists {
		db.Close()
		return bench.Target{}, nil, fmt.Errorf("--store: database %s exists; the bench needs a database of its own", name)
	}
	live, seed := quoteName(name), quoteName(name+"_seed")
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+live); err != nil {
		db.Close()
		return bench.Target{}, nil, err
	}
	target := bench.Target{
		Name:    "mysql",
		Shared:  true,
		Open:    openTarget(mysql.Open, storeURL, mysql.Options{}),
		Save:    func() error { return copyDatabase(db, name, name+"_seed") },
		Restore: func() error { return copyDatabase(db, name+"_seed", name) },
	}
	cleanup := func() {
		for _, d := range []string{live, seed} {
			db.Exec("DROP DATABASE IF EXISTS " + d)
		}
		db.Close()
	}
	return target, cleanup, nil
}

// copyDatabase replaces database to with a copy of every table of from,
// whose store is closed. Generated columns (the shard) are left for the
// copy to compute.
func copyDatabase(db *sql.DB, from, to string) error {
	ctx := context.Background()
	rows, err := db.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = ? AND coalesce(generation_expression, '') = ''
		ORDER BY table_name, ordinal_position`, from)
	if err != nil {
		return err
	}
	var tables []string
	cols := map[string][]string{}
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			rows.Close()
			return err
		}
		if len(cols[t]) == 0 {
			tables = append(tables, t)
		}
		cols[t] = append(cols[t], quoteName(c))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	src, dst := quoteName(from), quoteName(to)
	stmts := []string{"DROP DATABASE IF EXISTS " + dst, "CREATE DATABASE " + dst}
	var copied []string
	for _, t := range tables {
		list := strings.Join(cols[t], ", ")
		qt := quoteName(t)
		copied = append(copied, dst+"."+qt)
		stmts = append(stmts, "CREATE TABLE "+dst+"."+qt+" LIKE "+src+"."+qt,
			"INSERT INTO "+dst+"."+qt+" ("+list+") SELECT "+list+" FROM "+src+"."+qt)
	}
	if len(copied) > 0 {
		// The copy's pages go to disk before the phase that uses it
		// starts, as an old store's would be, not in the background
		// under it: on one connection, whose session holds the lock.
		stmts = append(stmts, "FLUSH TABLES "+strings.Join(copied, ", ")+" FOR EXPORT", "UNLOCK TABLES")
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			conn.ExecContext(ctx, "UNLOCK TABLES")
			return fmt.Errorf("copy database %s to %s: %w", from, to, err)
		}
	}
	return nil
}

// quoteName quotes a MySQL identifier.
func quoteName(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }
