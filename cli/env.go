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
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return envDefaults(fs, given)
}
