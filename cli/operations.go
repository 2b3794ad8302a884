package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lapsehq/lapse/client"
)

// voidCmd runs `lapse void`.
var voidCmd = remote("void", `usage: lapse void (--template ID | --coupons ID,ID… | --users ID,ID…) [--reason R] [--dry-run] [--wait]

Voids the unused coupons of a template, of a list of coupon IDs, or that
a list of users hold, as a bulk operation of the running lapse (POST
/v1/operations, admin scope); a locked coupon is voided when its lock
ends. --dry-run prints the counts by state and changes nothing; --wait
shows the operation's progress until it is done.`, 0, func(fs *flag.FlagSet) remoteRun {
	reason := fs.String("reason", "", "why, recorded with the operation and each coupon's event")
	return bulk(fs, "void", func(op *client.NewOperation) error {
		op.Reason = *reason
		return nil
	})
})

// extendCmd runs `lapse extend`.
var extendCmd = remote("extend", `usage: lapse extend (--template ID | --coupons ID,ID… | --users ID,ID…) (--by 72h | --expires-at T) [--dry-run] [--wait]

Moves the expiry of the unused and locked coupons of a template, of a
list of coupon IDs, or that a list of users hold, as a bulk operation of
the running lapse (POST /v1/operations, admin scope): by a duration each,
or to one RFC 3339 time. --dry-run prints the counts by state and changes
nothing; --wait shows the operation's progress until it is done.`, 0, func(fs *flag.FlagSet) remoteRun {
	by := fs.Duration("by", 0, "how much later each coupon expires")
	at := fs.String("expires-at", "", "when every coupon expires, RFC 3339")
	return bulk(fs, "extend", func(op *client.NewOperation) error {
		op.By = client.Duration(*by)
		if *at == "" {
			return nil
		}
		t, err := time.Parse(time.RFC3339Nano, *at)
		if err != nil {
			return fmt.Errorf("--expires-at: %w", err)
		}
		op.ExpiresAt = t
		return nil
	})
})

// operationsCmd runs `lapse operations <command>`.
var operationsCmd = group("operations", map[string]command{
	"show": {"an operation's state, counts and progress (--wait to follow it)", remote("operations show",
		`usage: lapse operations show <id> [--wait]

Prints a bulk operation of the running lapse (GET /v1/operations/<id>,
admin scope); with --wait it shows its progress until it is done.`, 1, func(fs *flag.FlagSet) remoteRun {
			follow := waitFlags(fs)
			return func(ctx context.Context, c *client.Client, args []string, stdout, stderr io.Writer) error {
				op, err := c.Operation(ctx, args[0])
				if err != nil {
					return err
				}
				return follow(ctx, c, op, stdout, stderr)
			}
		})},
})

// bulk sets up the flags every bulk operation of kind shares, and returns
// what starts it, or previews it with --dry-run, once args has added its
// own arguments.
func bulk(fs *flag.FlagSet, kind string, args func(*client.NewOperation) error) remoteRun {
	template := fs.String("template", "", "the template whose coupons to work")
	coupons := fs.String("coupons", "", "the coupons to work, by ID, comma-separated (in place of --template)")
	users := fs.String("users", "", "the users whose coupons to work, by ID, comma-separated (in place of --template)")
	dry := fs.Bool("dry-run", false, "print the coupons it would work, by state, and change nothing")
	follow := waitFlags(fs)
	return func(ctx context.Context, c *client.Client, _ []string, stdout, stderr io.Writer) error {
		op := client.NewOperation{Kind: kind, TemplateID: *template}
		if *coupons != "" {
			op.CouponIDs = strings.Split(*coupons, ",")
		}
		if *users != "" {
			op.UserIDs = strings.Split(*users, ",")
		}
		if err := args(&op); err != nil {
			return fmt.Errorf("%w: %w", ErrUsage, err)
		}
		if *dry {
			d, err := c.PreviewOperation(ctx, op)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "dry run: %s of %d coupon(s): unused %d, locked %d, used %d, expired %d, voided %d\n", d.Kind, d.Total,
				d.Counts.Unused, d.Counts.Locked, d.Counts.Used, d.Counts.Expired, d.Counts.Voided)
			return nil
		}
		started, err := c.StartOperation(ctx, op)
		if err != nil {
			return err
		}
		return follow(ctx, c, started, stdout, stderr)
	}
}

// waitFlags sets up --wait and --poll, and returns what prints an
// operation, after following it to its end with a progress bar on stderr
// if --wait.
func waitFlags(fs *flag.FlagSet) func(ctx context.Context, c *client.Client, op client.Operation, stdout, stderr io.Writer) error {
	wait := fs.Bool("wait", false, "show the operation's progress until it is done")
	every := fs.Duration("poll", time.Second, "with --wait, how often to ask how far the operation is")
	return func(ctx context.Context, c *client.Client, op client.Operation, stdout, stderr io.Writer) error {
		if *wait && !op.Done() {
			err := watch(ctx, stderr, op.Kind, op.Progress.Total, *every, func(ctx context.Context) (int64, int64, bool, error) {
				var err error
				op, err = c.Operation(ctx, op.ID)
				return op.Progress.Done, op.Progress.Total, op.Done(), err
			})
			if err != nil {
				return err
			}
		}
		printOperation(stdout, op)
		return nil
	}
}

// printOperation writes what an operation is and has done.
func printOperation(w io.Writer, op client.Operation) {
	target := "template " + op.Target.TemplateID
	switch {
	case len(op.Target.CouponIDs) > 0:
		target = fmt.Sprintf("%d coupon(s)", len(op.Target.CouponIDs))
	case len(op.Target.UserIDs) > 0:
		target = fmt.Sprintf("the coupons of %d user(s)", len(op.Target.UserIDs))
	}
	fmt.Fprintf(w, "operation %s: %s of %s, %s, %d/%d done: voided %d, extended %d, pending locked %d, missed %d, skipped %s\n",
		op.ID, op.Kind, target, op.State, op.Progress.Done, op.Progress.Total, op.Counts.Voided, op.Counts.Extended,
		op.Counts.PendingLocked, op.Counts.Missed, skipped(op.Counts.Skipped))
}

// skipped writes counts by state, in a fixed order, or 0 for none.
func skipped(counts map[string]int64) string {
	var parts []string
	for _, st := range []string{"unused", "locked", "used", "expired", "voided"} {
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", st, n))
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, ", ")
}
