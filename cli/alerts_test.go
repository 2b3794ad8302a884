package cli

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
)

// ruleMetric is a metric name in the alerting rules, in an expression or
// an annotation; a histogram's series are named with their suffix
// (_bucket, _count, _sum), as /metrics writes them.
var ruleMetric = regexp.MustCompile(`lapse_[a-z_]+`)

// serveStores opens a fresh store of each kind and returns its --store
// URL; nil leaves startServe's own SQLite store.
var serveStores = map[string]func(t testing.TB) string{
	"sqlite":   nil,
	"postgres": pgtest.SchemaURL,
	"mysql":    mysqltest.FreshDB,
}

// TestAlertRulesNameExportedMetrics: every metric the shipped alerting
// rules (alerts/lapse.rules.yml) name is one lapse serve exports, on every
// store, from its first scrape, before anything fell due: an alert on a
// metric lapse does not export, or not yet, would never fire.
func TestAlertRulesNameExportedMetrics(t *testing.T) {
	rules, err := os.ReadFile(filepath.Join("..", "alerts", "lapse.rules.yml"))
	if err != nil {
		t.Fatalf("read the rules: %v", err)
	}
	names := slices.Compact(slices.Sorted(slices.Values(ruleMetric.FindAllString(string(rules), -1))))
	if len(names) == 0 {
		t.Fatal("the rules name no lapse_ metric")
	}
	for name, storeURL := range serveStores {
		t.Run(name, func(t *testing.T) {
			args := []string{"--sink", "webhook+http://127.0.0.1:9/hook#name=notify", "--payment-check-url", "http://127.0.0.1:9/paid"}
			if storeURL != nil {
				args = append(args, "--store", storeURL(t))
			}
			s := startServe(t, args...)
			status, body := s.call(t, http.MethodGet, "/metrics", "")
			if status != http.StatusOK {
				t.Fatalf("GET /metrics: %d %s", status, body)
			}
			exported := map[string]bool{}
			sc := bufio.NewScanner(strings.NewReader(body))
			for sc.Scan() {
				if line := sc.Text(); !strings.HasPrefix(line, "#") {
					exported[strings.FieldsFunc(line, func(r rune) bool { return r == '{' || r == ' ' })[0]] = true
				}
			}
			for _, n := range names {
				if !exported[n] {
					t.Errorf("lapse.rules.yml names %s, which lapse serve on %s does not export", n, name)
				}
			}
		})
	}
}
