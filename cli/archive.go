package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/lapsehq/lapse/client"
)

// archiveCmd runs `lapse archive`.
var archiveCmd = remote("archive", `usage: lapse archive [--before T] [--dry-run]

Runs one archive run on the running lapse now (POST /v1/archive, admin
scope): used, expired and voided coupons and paid or closed orders last
changed before --before (RFC 3339; default: the server's --archive-after
ago) move to the archive tables, and spent reminder history is pruned.
Prints what moved, or with --dry-run what would, moving nothing.`, 0, func(fs *flag.FlagSet) remoteRun {
	before := fs.String("before", "", "archive what last changed before this RFC 3339 time")
	dry := fs.Bool("dry-run", false, "count what would move and move nothing")
	return func(ctx context.Context, c *client.Client, _ []string, stdout, _ io.Writer) error {
		run := client.ArchiveRun{DryRun: *dry}
		if *before != "" {
			t, err := time.Parse(time.RFC3339Nano, *before)
			if err != nil {
				return fmt.Errorf("%w: --before: %w", ErrUsage, err)
			}
			run.Before = t
		}
		a, err := c.Archive(ctx, run)
		if err != nil {
			return err
		}
		verb := "archived"
		if a.DryRun {
			verb = "dry run: would archive"
		}
		fmt.Fprintf(stdout, "%s %d coupon(s) and %d order(s) last changed before %s, and prune %d reminder(s)\n",
			verb, a.Coupons, a.Orders, a.Before.Format(time.RFC3339Nano), a.Reminders)
		return nil
	}
})
