package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/lapsehq/lapse/client"
)

// templatesCmd runs `lapse templates <command>`.
var templatesCmd = group("templates", map[string]command{
	"list": {"list every template, in pages (--json for one JSON object a line)", remote("templates list",
		`usage: lapse templates list [--json] [--after ID] [--limit N]

Lists the templates of the running lapse in creation order, reading them
in pages of --limit: a table, or with --json one JSON object a line, as
GET /v1/templates answers each (needs the admin scope).`, 0, templatesList)},
})

// templatesList sets up `lapse templates list`.
func templatesList(fs *flag.FlagSet) remoteRun {
	asJSON := fs.Bool("json", false, "one JSON object a line in place of a table")
	after := fs.String("after", "", "list the templates after this ID")
	limit := fs.Int("limit", 100, "templates read a request, 1 to 1000")
	return func(ctx context.Context, c *client.Client, _ []string, stdout, _ io.Writer) error {
		return printAll(stdout, *asJSON, "ID\tNAME\tVALUE\tTOTAL\tEXPIRES\tCREATED\tCLOSED",
			c.Templates(ctx, client.TemplateQuery{After: *after, Limit: *limit}), func(t client.Template) string {
				return fmt.Sprintf("%s\t%s\t%d\t%s\t%s\t%s\t%s", t.ID, t.Name, t.Value, orNone(t.Total, "unlimited"),
					expiry(t.Validity), t.CreatedAt.Format(time.RFC3339), orDash(t.ClosedAt))
			})
	}
}

// expiry says when a template's coupons expire.
func expiry(v client.Validity) string {
	d := time.Duration(v.Duration)
	switch {
	case v.EndsAt.IsZero():
		return d.String() + " after claim"
	case d == 0:
		return "at " + v.EndsAt.Format(time.RFC3339)
	}
	return fmt.Sprintf("%s after claim, by %s", d, v.EndsAt.Format(time.RFC3339))
}

// orNone writes n, or none for 0.
func orNone(n int64, none string) string {
	if n == 0 {
		return none
	}
	return fmt.Sprint(n)
}

// orDash writes t, or "-" for the zero time.
func orDash(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format(time.RFC3339)
}
