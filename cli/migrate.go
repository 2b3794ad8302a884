package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/lapsehq/lapse/store"
)

// migrateUsage is the help of `lapse migrate`.
const migrateUsage = `usage: lapse migrate [--store URL]

Applies the migrations the store lacks, each in its own transaction, says
which, and exits: lapse serve does the same as it starts, so this is for
migrating ahead of a deploy, or with a database user that may change the
schema when the service's may not. Instances starting together migrate
once (a lock on postgres and mysql).

flags:
`

// migrateCmd runs `lapse migrate`.
func migrateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, migrateUsage)
		fs.PrintDefaults()
	}
	url := fs.String("store", "sqlite:lapse.db", "store URL, as lapse serve takes it (LAPSE_STORE)")
	if err := parse(fs, args); errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return fmt.Errorf("%w: %w", ErrUsage, err)
	}
	var applied []string
	st, err := openStore(ctx, serveConfig{store: *url}, store.Hooks{OnMigrated: func(a []string) { applied = a }}, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, name := range applied {
		fmt.Fprintf(stdout, "applied %s\n", name)
	}
	fmt.Fprintf(stdout, "%s store %s: %d migration(s) applied, schema up to date\n", storeKind(*url), redact(*url), len(applied))
	return st.Ready(ctx)
}
