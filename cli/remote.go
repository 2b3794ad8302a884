package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/lapsehq/lapse/client"
)

// remoteRun runs an operator command, with the arguments left after its
// flags, over a client of the running lapse.
type remoteRun func(ctx context.Context, c *client.Client, args []string, stdout, stderr io.Writer) error

// remote makes the operator command name, which talks to a running lapse
// over its HTTP API at --url (LAPSE_URL) with --token (LAPSE_TOKEN),
// logging each request at debug (see loggedTransport). usage is its help,
// printed with the flags, grouped, on --help; setup registers the
// command's own flags on fs and returns what runs it once they are
// parsed. nargs is how many arguments it takes.
func remote(name, usage string, nargs int, setup func(fs *flag.FlagSet) remoteRun) func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		fs.SetOutput(stderr)
		fs.Usage = func() {
			fmt.Fprintln(fs.Output(), usage)
			printGroupedDefaults(fs, commandGroups)
		}
		url := fs.String("url", "http://127.0.0.1:8080", "base URL of the running lapse (LAPSE_URL)")
		token := fs.String("token", "", "API token, sent as Authorization: Bearer <token> (LAPSE_TOKEN)")
		var logs logFlags
		logs.register(fs)
		run := setup(fs)
		args, err := parseMixed(fs, args, stdout)
		if err != nil {
			return err
		}
		log, err := logs.logger(stderr)
		if err != nil {
			return err
		}
		if len(args) != nargs {
			fmt.Fprintf(stderr, "lapse %s: takes %d argument(s), got %d\n", name, nargs, len(args))
			fs.Usage()
			return fmt.Errorf("%w: lapse %s takes %d argument(s)", ErrUsage, name, nargs)
		}
		c, err := client.New(*url, client.WithToken(*token), // bound per attempt as the client's own default
			client.WithHTTPClient(&http.Client{Timeout: 30 * time.Second, Transport: loggedTransport{log}}))
		if err != nil {
			return fmt.Errorf("--url: %w", err)
		}
		return run(ctx, c, args, stdout, stderr)
	}
}

// group makes the command name whose first argument names one of subs
// (lapse sinks list, lapse sinks replay).
func group(name string, subs map[string]command) func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if len(args) > 0 {
			if sub, ok := subs[args[0]]; ok {
				return sub.run(ctx, args[1:], stdout, stderr)
			}
		}
		help := len(args) > 0 && isHelp(args[0])
		w := stderr
		if help {
			w = stdout
		}
		fmt.Fprintf(w, "usage: lapse %s <command> [flags]; lapse %s <command> --help for its flags\n\ncommands:\n", name, name)
		for _, n := range slices.Sorted(maps.Keys(subs)) {
			fmt.Fprintf(w, "  %-8s %s\n", n, subs[n].summary)
		}
		switch {
		case help:
			return nil
		case len(args) == 0:
			return fmt.Errorf("%w: lapse %s needs one of %s", ErrUsage, name, strings.Join(slices.Sorted(maps.Keys(subs)), ", "))
		}
		return fmt.Errorf("%w: unknown %s command %q", ErrUsage, name, args[0])
	}
}
