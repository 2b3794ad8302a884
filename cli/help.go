package cli

import (
	"flag"
	"fmt"
	"slices"
)

// flagSpec names flags of a command under a title, for its --help. In a
// list of them, one with no flags (nil) takes the flags no other names;
// with none such, those come last, under "Other".
type flagSpec struct {
	title string
	flags []string
}

// logsGroup is the log flags' group, on every command that has them.
var logsGroup = flagSpec{"Logs", []string{"log-format", "log-level"}}

// commandGroups order the flags of every command but lapse serve (whose
// are configGroups) in its --help: the command's own first, under its
// name, then the flags commands share.
var commandGroups = []flagSpec{
	{"", nil},
	{"Store", []string{"store"}},
	{"Output", []string{"out", "plot", "cpuprofile"}},
	{"Connection", []string{"url", "token"}},
	logsGroup,
}

// flagGroup is a titled list of a flag set's flags.
type flagGroup struct {
	title string
	flags []*flag.Flag
}

// groupedFlags is fs's flags grouped as specs say, in their order, each
// once; a group without flags in fs is left out, a title "" is fs's name.
func groupedFlags(fs *flag.FlagSet, specs []flagSpec) []flagGroup {
	named := map[string]bool{}
	for _, s := range specs {
		for _, n := range s.flags {
			named[n] = true
		}
	}
	var rest []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) {
		if !named[f.Name] {
			rest = append(rest, f)
		}
	})
	if !slices.ContainsFunc(specs, func(s flagSpec) bool { return s.flags == nil }) {
		specs = append(slices.Clip(specs), flagSpec{"Other", nil})
	}
	var groups []flagGroup
	for _, s := range specs {
		g := flagGroup{title: s.title, flags: rest}
		if s.title == "" {
			g.title = fs.Name()
		}
		if s.flags != nil {
			g.flags = nil
			for _, n := range s.flags {
				if f := fs.Lookup(n); f != nil {
					g.flags = append(g.flags, f)
				}
			}
		}
		if len(g.flags) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

// printGroupedDefaults writes fs's flags to its output as PrintDefaults
// does, grouped as specs say, each group under its title.
func printGroupedDefaults(fs *flag.FlagSet, specs []flagSpec) {
	for _, g := range groupedFlags(fs, specs) {
		fmt.Fprintf(fs.Output(), "\n%s:\n", g.title)
		one := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		one.SetOutput(fs.Output())
		for _, f := range g.flags {
			one.Var(f.Value, f.Name, f.Usage)
			one.Lookup(f.Name).DefValue = f.DefValue
		}
		one.PrintDefaults()
	}
}
