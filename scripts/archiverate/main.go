// Command archiverate times one archive run (store.DB.Archive) over a
// store: scripts/archive-rate.sh seeds it with expired coupons first.
//
//	go run ./scripts/archiverate sqlite|postgres|mysql URL migrate
//	go run ./scripts/archiverate sqlite|postgres|mysql URL run BATCH
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "archiverate:", err)
		os.Exit(1)
	}
}

// run opens (and so migrates) the store of args[0] at args[1] and, with
// "run", archives everything terminal by now in batches of args[3] and
// prints the rate.
func run(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("usage: archiverate sqlite|postgres|mysql URL migrate|run [BATCH]")
	}
	ctx := context.Background()
	var (
		st  *store.DB
		err error
	)
	switch args[0] {
	case "sqlite":
		st, err = store.Options{}.Open(sqlite.Open(ctx, args[1], sqlite.Options{}))
	case "postgres":
		st, err = store.Options{}.Open(postgres.Open(ctx, args[1], postgres.Options{}))
	case "mysql":
		st, err = store.Options{}.Open(mysql.Open(ctx, args[1], mysql.Options{}))
	default:
		return fmt.Errorf("unknown store %q", args[0])
	}
	if err != nil {
		return err
	}
	defer st.Close()
	if args[2] != "run" {
		return nil
	}
	batch := store.ArchiveBatch
	if len(args) > 3 {
		if batch, err = strconv.Atoi(args[3]); err != nil {
			return err
		}
	}
	now := time.Now().UTC()
	start := time.Now()
	a, err := st.Archive(ctx, store.ArchiveParams{Before: now, Now: now, Limit: batch})
	took := time.Since(start)
	if err != nil {
		return err
	}
	fmt.Printf("%s: archived %d coupons and %d orders in %.1f s: %.0f rows/s (batch %d)\n",
		args[0], a.Coupons, a.Orders, took.Seconds(), float64(a.Coupons+a.Orders)/took.Seconds(), batch)
	return nil
}
