package cli

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
)

// build is what the Go toolchain recorded in the binary about how it was
// built: lapse's module version, "(devel)" when built from a checkout
// rather than a tagged module, and the commit it was built from.
type build struct {
	version, revision, time, goVersion string
	// modified is "true" when the checkout had changes not committed.
	modified string
}

// readBuild reads the binary's build information; the fields the
// toolchain did not record are empty, the version "(devel)".
func readBuild() build {
	b := build{version: "(devel)"}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if info.Main.Version != "" {
		b.version = info.Main.Version
	}
	b.goVersion = info.GoVersion
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.revision = s.Value
		case "vcs.time":
			b.time = s.Value
		case "vcs.modified":
			b.modified = s.Value
		}
	}
	return b
}

// versionUsage is the help of `lapse version`.
const versionUsage = `usage: lapse version

Prints the version lapse was built as ((devel) when built from a checkout
rather than a released module), the commit, its time and whether the
checkout had uncommitted changes, and the Go version.`

// versionCmd runs `lapse version`: one field a line, those the build
// recorded.
func versionCmd(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if isHelp(args[0]) {
			fmt.Fprintln(stdout, versionUsage)
			return nil
		}
		fmt.Fprintln(stderr, versionUsage)
		return fmt.Errorf("%w: lapse version takes no arguments", ErrUsage)
	}
	b := readBuild()
	for _, f := range []struct{ name, value string }{
		{"version", b.version}, {"revision", b.revision}, {"time", b.time},
		{"modified", b.modified}, {"go", b.goVersion},
	} {
		if f.value != "" {
			fmt.Fprintf(stdout, "%-9s %s\n", f.name, f.value)
		}
	}
	return nil
}

// registerBuildInfo registers lapse_build_info on reg: 1, labelled with
// the version, revision and Go version of the binary.
func registerBuildInfo(reg prometheus.Registerer) {
	b := readBuild()
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "lapse_build_info",
		Help:        "1, labelled with the version, VCS revision and Go version lapse was built from.",
		ConstLabels: prometheus.Labels{"version": b.version, "revision": b.revision, "goversion": b.goVersion},
	})
	g.Set(1)
	reg.MustRegister(g)
}
