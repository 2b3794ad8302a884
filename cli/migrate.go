package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/lapsehq/lapse/storetype"
)

// migrateUsage is the help of `lapse migrate`.
const migrateUsage = `usage: lapse migrate [--store URL]

Applies the migrations the store lacks, each in its own transaction, says
which and the schema version before and after, and exits: lapse serve does
the same as it starts, so this is for migrating ahead of a deploy, or with
a database user that may change the schema when the service's may not.
Instances starting together migrate once (a lock on postgres and mysql).
A version is a migration's number, the same on every store. A store whose
schema is newer than this lapse (it records a migration this lapse does
not have) is refused, here and by lapse serve.`

// migrateCmd runs `lapse migrate`.
func migrateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), migrateUsage)
		printGroupedDefaults(fs, commandGroups)
	}
	url := fs.String("store", "sqlite:lapse.db", "store URL, as lapse serve takes it (LAPSE_STORE)")
	var logs logFlags
	logs.register(fs)
	if err := parse(fs, args, stdout); err != nil {
		return err
	}
	log, err := logs.logger(stderr)
	if err != nil {
		return err
	}
	var change storetype.SchemaChange
	d, err := openDriver(ctx, serveConfig{store: *url}, func(c storetype.SchemaChange) { change = c })
	if err != nil {
		return err
	}
	defer d.Close()
	kind := storeKind(*url)
	if change.Renumbered {
		fmt.Fprintf(stdout, "renumbered the recorded versions from %s's own numbering to the one every store shares\n", kind)
	}
	for _, name := range change.Applied {
		fmt.Fprintf(stdout, "applied %s\n", name)
	}
	fmt.Fprintf(stdout, "%s store %s: schema version %d -> %d, %d migration(s) applied, up to date\n",
		kind, redact(*url), change.From, change.To, len(change.Applied))
	log.Info("lapse: migrated", slog.String("store", redact(*url)), slog.Int("from", change.From), slog.Int("to", change.To),
		slog.Int("applied", len(change.Applied)))
	return d.Ready(ctx)
}
