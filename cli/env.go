package cli

import (
	"flag"
	"os"
	"strings"
)

// envDefaults sets every flag of fs not given on the command line from the
// environment variable LAPSE_<NAME> (dashes as underscores), if set.
func envDefaults(fs *flag.FlagSet, given map[string]bool) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || err != nil {
			return
		}
		name := "LAPSE_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok {
			err = fs.Set(f.Name, v)
		}
	})
	return err
}

// parse parses args into fs, then fills the flags not given from the
// environment.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	return fromEnv(fs)
}

// parseMixed is parse for a command whose arguments and flags may come in
// any order (lapse sinks replay hook --wait); it returns the arguments.
func parseMixed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
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
