package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/lapsehq/lapse/client"
)

// sinksCmd runs `lapse sinks <command>`.
var sinksCmd = group("sinks", map[string]command{
	"list": {"every sink of the relay: position, lag, failures, dead letters", remote("sinks list",
		`usage: lapse sinks list [--json]

Reports every sink of the running lapse's outbox relay, as GET /v1/sinks
does (needs the admin scope).`, 0, sinksList)},
	"replay": {"queue a sink's dead letters for redelivery (--wait to watch them go)", remote("sinks replay",
		`usage: lapse sinks replay <sink> [--wait]

Queues the dead letters of <sink> for redelivery (POST
/v1/sinks/<sink>/replay, needs the admin scope) and says how many. With
--wait it then shows their redelivery until none is queued.`, 1, sinksReplay)},
})

// sinksList sets up `lapse sinks list`.
func sinksList(fs *flag.FlagSet) remoteRun {
	asJSON := fs.Bool("json", false, "one JSON object a line in place of a table")
	return func(ctx context.Context, c *client.Client, _ []string, stdout, _ io.Writer) error {
		sinks, err := c.Sinks(ctx)
		return printAll(stdout, *asJSON, "NAME\tTYPE\tPOSITION\tLAG\tFAILURES\tDEAD LETTERS\tQUEUED\tLAST ERROR",
			withErr(sinks, err), func(s client.Sink) string {
				return fmt.Sprintf("%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s", s.Name, s.Type, s.Position, s.Lag, s.Failures,
					s.DeadLetters, s.Queued, cmp.Or(s.LastError, "-"))
			})
	}
}

// sinksReplay sets up `lapse sinks replay`.
func sinksReplay(fs *flag.FlagSet) remoteRun {
	wait := fs.Bool("wait", false, "show the redelivery until no dead letter is queued")
	every := fs.Duration("poll", time.Second, "with --wait, how often to ask how far the redelivery is")
	return func(ctx context.Context, c *client.Client, args []string, stdout, stderr io.Writer) error {
		name := args[0]
		r, err := c.Replay(ctx, name)
		if err != nil {
			return fmt.Errorf("replay %s: %w", name, err)
		}
		fmt.Fprintf(stdout, "sink %s: %d dead letters queued for redelivery\n", r.Name, r.Queued)
		if !*wait || r.Queued == 0 {
			return nil
		}
		return watch(ctx, stderr, "replay", r.Queued, *every, func(ctx context.Context) (int64, int64, bool, error) {
			sinks, err := c.Sinks(ctx)
			if err != nil {
				return 0, r.Queued, false, err
			}
			i := slices.IndexFunc(sinks, func(s client.Sink) bool { return s.Name == name })
			if i < 0 {
				return 0, r.Queued, false, fmt.Errorf("sink %s is gone", name)
			}
			return r.Queued - sinks[i].Queued, r.Queued, sinks[i].Queued == 0, nil
		})
	}
}

// withErr iterates over items, or yields err alone.
func withErr[T any](items []T, err error) func(yield func(T, error) bool) {
	return func(yield func(T, error) bool) {
		if err != nil {
			var zero T
			yield(zero, err)
			return
		}
		for _, it := range items {
			if !yield(it, nil) {
				return
			}
		}
	}
}
