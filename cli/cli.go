package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{
	"serve":   {"run the HTTP API and the expiry engine", serve},
	"bench":   {"measure a coupon storm, order timeouts, or bulk operations on a store", benchCmd},
	"tokens":  {"create, list and revoke API tokens (lapse tokens help)", tokensCmd},
	"migrate": {"apply the store's migrations and exit", migrateCmd},
	"version": {"print lapse's version, the commit it was built from and its Go version", versionCmd},

	// Operator commands, over the HTTP API of a running lapse.
	"templates":  {"list templates (lapse templates help)", templatesCmd},
	"sinks":      {"list sinks, replay dead letters (lapse sinks help)", sinksCmd},
	"void":       {"void a template's or listed coupons in bulk (--dry-run, --wait)", voidCmd},
	"extend":     {"move the expiry of a template's or listed coupons (--dry-run, --wait)", extendCmd},
	"operations": {"show a bulk operation (lapse operations help)", operationsCmd},
	"archive":    {"move old terminal coupons and orders to the archive now", archiveCmd},
	"reconcile":  {"check stock, orders, locks and timers (--repair)", reconcileCmd},
}

// ErrUsage is returned for a command line lapse cannot run: no known
// command, a bad flag, arguments missing. What is wrong has been written
// to stderr, with the help; the process exits 2.
var ErrUsage = errors.New("usage")

// Run runs the command named by args[0] until it finishes or ctx is done.
// Help, asked with help, -h or --help, goes to stdout. The log and a
// bench's progress bar both write to stderr from their own goroutines, so
// Run serialises its writes unless stderr is a file (whose writes are
// safe already, and which must stay one for the terminal checks).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if _, ok := stderr.(*os.File); !ok {
		stderr = &lockedWriter{w: stderr}
	}
	if len(args) == 0 {
		usage(stderr)
		return ErrUsage
	}
	if isHelp(args[0]) {
		usage(stdout)
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "lapse: unknown command %q\n\n", args[0])
		usage(stderr)
		return fmt.Errorf("%w: unknown command %q", ErrUsage, args[0])
	}
	if err := cmd.run(ctx, args[1:], stdout, stderr); !errors.Is(err, flag.ErrHelp) {
		return err
	}
	return nil
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "help" || arg == "-h" || arg == "--help" || arg == "-help"
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: lapse <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

// lockedWriter lets several goroutines write to one writer, each write
// whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
