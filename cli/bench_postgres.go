package cli

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/bench"
	"github.com/lapsehq/lapse/driver/postgres"
)

// postgresTarget is the bench target of a new PostgreSQL database, the one
// storeURL names, which it creates through the server's postgres
// database. Save copies it whole into <name>_seed, Restore copies that
// back (CREATE DATABASE … TEMPLATE, a file copy: PostgreSQL 15 or later);
// the cleanup drops both.
func postgresTarget(ctx context.Context, storeURL string) (bench.Target, func(), error) {
	u, err := url.Parse(storeURL)
	if err != nil {
		return bench.Target{}, nil, fmt.Errorf("--store: %w", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if name == "" || name == "postgres" {
		return bench.Target{}, nil, fmt.Errorf("--store: name a database of the bench's own, not %q", name)
	}
	admin := *u
	admin.Path = "/postgres"
	// Through PgBouncer in transaction pooling, no named prepared
	// statements (see postgres.Open).
	q := admin.Query()
	q.Set("default_query_exec_mode", "exec")
	admin.RawQuery = q.Encode()
	conn, err := pgx.Connect(ctx, admin.String())
	if err != nil {
		return bench.Target{}, nil, fmt.Errorf("--store: %w", err)
	}
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		conn.Close(ctx)
		return bench.Target{}, nil, err
	}
	if exists {
		conn.Close(ctx)
		return bench.Target{}, nil, fmt.Errorf("--store: database %s exists; the bench needs a database of its own", name)
	}
	db, seed := pgx.Identifier{name}.Sanitize(), pgx.Identifier{name + "_seed"}.Sanitize()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		conn.Close(ctx)
		return bench.Target{}, nil, err
	}
	// clone replaces database to with a copy of from, whose store is
	// closed: through a pooler (PgBouncer), whose idle server connections
	// to from outlive the store, after ending them.
	clone := func(from, to string) error {
		if _, err := conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+to+" WITH (FORCE)"); err != nil {
			return err
		}
		if _, err := conn.Exec(context.Background(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", strings.Trim(from, `"`)); err != nil {
			return err
		}
		_, err := conn.Exec(context.Background(), "CREATE DATABASE "+to+" TEMPLATE "+from+" STRATEGY FILE_COPY")
		return err
	}
	target := bench.Target{
		Name:    "postgres",
		Shared:  true,
		Open:    openTarget(postgres.Open, storeURL, postgres.Options{}),
		Save:    func() error { return clone(db, seed) },
		Restore: func() error { return clone(seed, db) },
	}
	cleanup := func() {
		for _, d := range []string{db, seed} {
			conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+d+" WITH (FORCE)")
		}
		conn.Close(context.Background())
	}
	return target, cleanup, nil
}
