package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/lapsehq/lapse/client"
)

// reconcileCmd runs `lapse reconcile`.
var reconcileCmd = remote("reconcile", `usage: lapse reconcile [--repair] [--json]

Checks stock, open orders, locks and timers of the running lapse against
each other (GET /v1/reconcile, admin scope) and prints each drift, then
the count by check; --repair also repairs what can be (POST
/v1/reconcile). --json prints the answer as the API writes it.`, 0, func(fs *flag.FlagSet) remoteRun {
	repair := fs.Bool("repair", false, "repair the drift found")
	asJSON := fs.Bool("json", false, "print the answer as one JSON object")
	return func(ctx context.Context, c *client.Client, _ []string, stdout, _ io.Writer) error {
		check := c.Reconcile
		if *repair {
			check = c.Repair
		}
		rec, err := check(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(stdout).Encode(rec)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CHECK\tSUBJECT\tEXPECTED\tACTUAL\tREPAIRED\tDETAIL")
		for _, d := range rec.Drift {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%t\t%s\n", d.Check, d.Subject, d.Expected, d.Actual, d.Repaired, d.Detail)
		}
		tw.Flush()
		for _, check := range slices.Sorted(maps.Keys(rec.Counts)) {
			fmt.Fprintf(stdout, "%s: %d\n", check, rec.Counts[check])
		}
		fmt.Fprintf(stdout, "%d drift(s), %d repaired\n", len(rec.Drift), rec.Repaired)
		return nil
	}
})
