package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// envName is the environment variable flag name may be set from:
// LAPSE_<NAME>, dashes as underscores.
func envName(name string) string {
	return "LAPSE_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// readsEnv reports whether f is set from the environment: only a flag
// whose help names its variable, as "(LAPSE_<NAME>" followed by a
// character that cannot go on the name. So a command reads exactly the
// variables its --help lists and no other: the settings of lapse serve
// (its --repair reads LAPSE_REPAIR), the store of migrate and tokens, and
// the --url and --token of the operator commands; an operator command's
// actions (reconcile's --repair, --dry-run, --reason) never come from a
// shell variable.
func readsEnv(f *flag.Flag) bool {
	marker := "(" + envName(f.Name)
	i := strings.Index(f.Usage, marker)
	if i < 0 {
		return false
	}
	rest := f.Usage[i+len(marker):]
	return rest == "" || !strings.ContainsAny(rest[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
}

// envDefaults sets every flag of fs not given on the command line and
// read from the environment (see readsEnv) from its variable, if set.
func envDefaults(fs *flag.FlagSet, given map[string]bool) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil || !readsEnv(f) {
			return
		}
		if v, ok := os.LookupEnv(envName(f.Name)); ok {
			if err = fs.Set(f.Name, v); err != nil {
				err = fmt.Errorf("%s: %w", envName(f.Name), err)
			}
		}
	})
	return err
}

// parse parses args into fs, then fills the flags not given from the
// environment. See parseArgs for help and bad flags.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	if err := parseArgs(fs, args, stdout); err != nil {
		return err
	}
	return fromEnv(fs)
}

// parseArgs parses args into fs. -h or --help writes fs's help to stdout
// and is flag.ErrHelp (Run exits 0 on it); a bad flag writes the error and
// the help to fs's output, stderr, and is ErrUsage. fs.Usage must write
// to fs.Output().
func parseArgs(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	stderr := fs.Output()
	var said bytes.Buffer
	fs.SetOutput(&said)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		io.Copy(stdout, &said)
		return err
	case err != nil:
		io.Copy(stderr, &said)
		return fmt.Errorf("%w: %w", ErrUsage, err)
	}
	return nil
}

// parseMixed is parse for a command whose arguments and flags may come in
// any order (lapse sinks replay hook --wait); it returns the arguments.
func parseMixed(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	var pos []string
	for {
		if err := parseArgs(fs, args, stdout); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, fromEnv(fs)
		}
		pos, args = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
}

// fromEnv fills the flags of fs not given on the command line from the
// environment.
func fromEnv(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return envDefaults(fs, given)
}
