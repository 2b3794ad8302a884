package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// configGroups orders lapse serve's flags, in its --help and on
// docs/configuration.md. A flag no group names is listed under "Other",
// so a new flag shows on the page as soon as it is regenerated.
var configGroups = []flagSpec{
	{"HTTP", []string{"listen", "insecure", "console", "read-timeout", "write-timeout", "idle-timeout", "issue-timeout", "max-lock-ttl", "idempotency-ttl"}},
	{"Store and instances", []string{"store", "instance", "lease-ttl", "max-clock-skew", "redis", "amqp-delay"}},
	{"Expiry engine", []string{"batch-size", "sweep-interval", "loader-interval", "operation-batch", "operation-share", "storm-user-budget", "payment-check-url", "payment-grace"}},
	{"Event delivery", []string{"sink", "sink-secret", "sink-max-attempts", "event-retention"}},
	{"Archive and reconciliation", []string{"archive-after", "archive-interval", "reconcile-interval", "repair"}},
	{"Reminders", []string{"reminders", "reminder-window", "quiet-hours", "sms-threshold", "sms-inactive", "daily-cap"}},
	logsGroup,
}

// configIntro and configOutro frame the flag tables of
// docs/configuration.md.
const (
	configIntro = `<!-- Generated from lapse serve's flag set by ` + "`go test ./cli -run TestConfigPage -update`" + `: edit the flags' help in cli/, not this page. -->

# Configuration

` + "`lapse serve`" + ` is configured by flags, each also read from the environment
variable its row names (` + "`LAPSE_<FLAG>`" + `, dashes as underscores); a flag on
the command line wins over its variable. A command reads exactly the
variables its ` + "`--help`" + ` names: these for ` + "`serve`" + `, ` + "`LAPSE_STORE`" + ` for ` + "`migrate`" + `
and ` + "`tokens`" + `, ` + "`LAPSE_URL`" + ` and ` + "`LAPSE_TOKEN`" + ` for the operator commands
([operations](operations.md#operator-commands)), and ` + "`LAPSE_LOG_FORMAT`" + ` and
` + "`LAPSE_LOG_LEVEL`" + ` for every command but ` + "`version`" + `, which all take
` + "`--log-format`" + ` and ` + "`--log-level`" + `. ` + "`lapse serve --help`" + ` prints
the same list.

Durations are Go durations (` + "`90s`, `72h`" + `).
`
	configOutro = `
SIGINT or SIGTERM stops ` + "`lapse serve`" + ` gracefully: no new requests, the
batch in flight commits, then it exits. Nothing due is lost by a stop or
a crash: timers are rows in the store, and on start the engine fires
every overdue one.
`
)

// writeConfigPage writes docs/configuration.md from fs, lapse serve's
// flag set: a table per group of flag, variable, default and meaning,
// each taken from the flag's help.
func writeConfigPage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, configIntro)
	for _, g := range groupedFlags(fs, configGroups) {
		fmt.Fprintf(w, "\n## %s\n\n| flag | variable | default | meaning |\n|---|---|---|---|\n", g.title)
		for _, f := range g.flags {
			env, def, meaning := configRow(f)
			fmt.Fprintf(w, "| `--%s` | %s | %s | %s |\n", f.Name, env, def, meaning)
		}
	}
	fmt.Fprint(w, configOutro)
}

// configRow is a flag's variable, default and meaning as the page
// shows them. The help names the variable in parentheses, which may
// also hold the default of a flag whose zero value is not it
// ("(LAPSE_REMINDERS; default none)") or a note ("(LAPSE_SINK,
// space-separated)").
func configRow(f *flag.Flag) (env, def, meaning string) {
	_, usage := flag.UnquoteUsage(f)
	def = f.DefValue
	env = "none"
	if i := strings.Index(usage, "("+envName(f.Name)); i >= 0 && readsEnv(f) {
		j := i + strings.IndexByte(usage[i:], ')')
		inner := strings.TrimPrefix(usage[i+1:j], envName(f.Name))
		usage = strings.TrimSpace(usage[:i]) + usage[j+1:]
		env = "`" + envName(f.Name) + "`"
		switch {
		case strings.HasPrefix(inner, "; default "):
			def = strings.TrimPrefix(inner, "; default ")
		case inner != "":
			env += " (" + strings.TrimLeft(inner, ",; ") + ")"
		}
	}
	return env, "`" + configDefault(f, def) + "`", mdCell(usage)
}

// configDefault writes a default as a reader would type it: 720h, not
// 720h0m0s; none for an empty one; and this machine's instance name as
// the rule that makes it.
func configDefault(f *flag.Flag, def string) string {
	if d, err := time.ParseDuration(def); err == nil {
		def = d.String()
		if strings.HasSuffix(def, "m0s") { // 1m0s → 1m
			def = strings.TrimSuffix(def, "0s")
		}
		if strings.HasSuffix(def, "h0m") { // 720h0m → 720h
			def = strings.TrimSuffix(def, "0m")
		}
		if d == 0 {
			def = "0"
		}
	}
	switch {
	case def == "":
		return "none"
	case f.Name == "instance" && def == defaultInstance():
		return "<host>-<pid>"
	}
	return def
}

// mdCell escapes text for a cell of a Markdown table: a bar would end
// the cell, an angle bracket start HTML.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}
