package docs

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated parts of the manual")

// benchTable renders runs as a Markdown table, a header and a row per run,
// between <!-- bench:<prefix> --> and <!-- /bench --> on a page. Its runs
// are every bench/<prefix>-*.json (or every file glob matches), by store,
// unless runs names them.
type benchTable struct {
	prefix string
	glob   string
	header string
	row    func(name string, r run) string
	runs   []string
}

// benchTables are the tables of benchmarks.md.
var benchTables = []benchTable{
	{prefix: "storm", header: "| run | lapse | floor | ratio | writes p99 idle → storm | reads p99 storm | racers p99 lapse / naive / floor | steady lag p99 |\n|---|---|---|---|---|---|---|---|",
		row: func(name string, r run) string {
			return fmt.Sprintf("| %s, %s coupons, %s | %s | %s | %.2f | %s → %s (%.1f×) | %s | %s / %s / %s | %s |",
				storeOf(name), count(r.num("coupons")), plural(r.num("instances"), "instance"), rate(r.num("lapse.rate")), rate(r.num("floor.rate")), r.num("ratios.drain_vs_floor"),
				ms(r.num("idle.user_p99")), ms(r.num("lapse.user_p99")), r.num("ratios.user_p99_storm_vs_idle"), ms(r.num("lapse.reads.p99")),
				ms(r.num("racers.lapse.p99")), ms(r.num("racers.naive.p99")), ms(r.num("racers.floor.p99")), ms(r.num("steady.lag_p99")))
		}},
	{prefix: "pace", glob: "bench/pace/targets/storm-*.json",
		header: "| run | drained | lapse | floor | ratio | writes p99 idle → storm | writes max | racers p99 | steady lag p99 |\n|---|---|---|---|---|---|---|---|---|",
		row: func(name string, r run) string {
			return fmt.Sprintf("| %s, %s coupons, %s | %s | %s | %s | %.2f | %s → %s (%.2f×) | %s | %s | %s |",
				storeOf(name), count(r.num("coupons")), plural(r.num("instances"), "instance"), ms(r.num("lapse.drain_seconds")),
				rate(r.num("lapse.rate")), rate(r.num("floor.rate")), r.num("ratios.drain_vs_floor"),
				ms(r.num("idle.user_p99")), ms(r.num("lapse.user_p99")), r.num("ratios.user_p99_storm_vs_idle"),
				ms(math.Max(r.num("lapse.ops.lock.max"), r.num("lapse.ops.redeem.max"))), ms(r.num("racers.lapse.p99")), ms(r.num("steady.lag_p99")))
		}},
	{prefix: "accel", header: "| delay queue | lag p50 | p99 | max | first expiry on the instances that did not issue |\n|---|---|---|---|---|",
		row: func(name string, r run) string {
			var rows []string
			for _, q := range []struct{ key, label string }{{"none", "none"}, {"redis", "Redis (`--redis`)"}, {"amqp", "RabbitMQ (`--amqp-delay`)"}} {
				var others []string
				for _, inst := range []string{"accel-2", "accel-3"} { // accel-1 issues
					others = append(others, ms(r.num(q.key+".by_instance."+inst+".first_ms")/1000))
				}
				rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s |", q.label,
					ms(r.num(q.key+".p50_ms")/1000), ms(r.num(q.key+".p99_ms")/1000), ms(r.num(q.key+".max_ms")/1000), strings.Join(others, ", ")))
			}
			return strings.Join(rows, "\n")
		}},
	{prefix: "hotsku", header: "| store | lapse, 1 bucket | lapse, 8 buckets | floor (one row) | 1 bucket / floor | 8 buckets / floor | never oversold |\n|---|---|---|---|---|---|---|",
		row: func(name string, r run) string {
			orders := func(k string) string {
				return fmt.Sprintf("%s (%s)", count(r.num(k+".rate")), ms(r.num(k+".latency.p99")))
			}
			return fmt.Sprintf("| %s | %s | %s | %s | %.2f | %.2f | %s |", storeOf(name), orders("lapse"), orders("bucketed"), orders("floor"),
				r.num("ratio"), r.num("bucketed_ratio"), yes(r.bool("lapse.stock_ok") && r.bool("bucketed.stock_ok") && r.bool("floor.stock_ok")))
		}},
	{prefix: "ops", header: "| run | void | extend | archive | user p99 idle | during void (×idle) | during extend (×idle) |\n|---|---|---|---|---|---|---|",
		row: func(name string, r run) string {
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s (%.1f×) | %s (%.1f×) |", storeOf(name),
				rate(r.num("void.rate")), rate(r.num("extend.rate")), rate(r.num("archive.rate")), ms(r.num("idle.writes.p99")),
				ms(r.num("void.users.writes.p99")), r.num("ratios.user_p99_void_vs_idle"),
				ms(r.num("extend.users.writes.p99")), r.num("ratios.user_p99_extend_vs_idle"))
		}},
}

// readmeTables are the README's headline numbers, a row per store: its
// storm (the most instances), flash sale and bulk void, each row a run
// joined from three (see loadRun).
var readmeTables = []benchTable{
	{prefix: "headline",
		runs:   []string{"storm-sqlite-1m+hotsku-sqlite+ops-sqlite", "storm-postgres-1m-3+hotsku-postgres+ops-postgres", "storm-mariadb-1m-3+hotsku-mariadb+ops-mariadb"},
		header: "| store | a storm drained | users' write p99 in it | steady lag p99 | a flash sale on one SKU | a bulk void (users' p99 × idle) |\n|---|---|---|---|---|---|",
		row: func(name string, r run) string {
			store := stores[storeRank(name)].name
			if n := r.num("storm.instances"); n != 1 {
				store += ", " + plural(n, "instance")
			}
			sale := fmt.Sprintf("%s orders/s, 1 bucket", count(r.num("hotsku.lapse.rate")))
			if r.num("hotsku.bucketed.rate") > r.num("hotsku.lapse.rate") {
				sale = fmt.Sprintf("%s orders/s, %s", count(r.num("hotsku.bucketed.rate")), plural(r.num("hotsku.buckets"), "bucket"))
			}
			if !r.bool("hotsku.lapse.stock_ok") || !r.bool("hotsku.bucketed.stock_ok") {
				sale += ", **oversold**"
			}
			return fmt.Sprintf("| %s | %s coupons in %s (%s) | %s | %s | %s | %s (%.1f×) |", store,
				count(r.num("storm.coupons")), ms(r.num("storm.lapse.drain_seconds")), rate(r.num("storm.lapse.rate")),
				ms(r.num("storm.lapse.user_p99")), ms(r.num("storm.steady.lag_p99")), sale,
				rate(r.num("ops.void.rate")), r.num("ops.ratios.user_p99_void_vs_idle"))
		}},
}

// run is one benchmark's JSON.
type run map[string]any

// loadRun reads bench/<name>.json; a name of several runs joined by "+"
// is a run holding each under its kind (the prefix of its name), so that
// "storm-sqlite-1m+ops-sqlite" has storm.lapse.rate and ops.void.rate.
func loadRun(t *testing.T, name string) run {
	t.Helper()
	if parts := strings.Split(name, "+"); len(parts) > 1 {
		joined := run{}
		for _, p := range parts {
			kind, _, _ := strings.Cut(p, "-")
			joined[kind] = map[string]any(loadRun(t, p))
		}
		return joined
	}
	raw, err := os.ReadFile("bench/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var r run
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// num is the number at a dotted path of r; a path that names none is
// NaN, which shows on the page.
func (r run) num(path string) float64 {
	v, ok := r.at(path).(float64)
	if !ok {
		return math.NaN()
	}
	return v
}

func (r run) bool(path string) bool {
	v, _ := r.at(path).(bool)
	return v
}

func (r run) at(path string) any {
	var v any = map[string]any(r)
	for k := range strings.SplitSeq(path, ".") {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// stores are the stores runs are named after, in the order the tables
// list them: the file name says MariaDB where the JSON says mysql.
var stores = []struct{ key, name string }{{"sqlite", "SQLite"}, {"postgres", "PostgreSQL"}, {"mariadb", "MariaDB"}}

// storeRank is the place of a run's store in stores.
func storeRank(name string) int {
	return slices.IndexFunc(stores, func(s struct{ key, name string }) bool { return strings.Contains(name, "-"+s.key) })
}

// storeOf names a run's store and links its JSON.
func storeOf(name string) string {
	store := "?"
	if i := storeRank(name); i >= 0 {
		store = stores[i].name
	}
	return fmt.Sprintf("%s ([`%s`](bench/%s.json))", store, name, name)
}

func rate(perSecond float64) string { return fmt.Sprintf("%.1f k/s", perSecond/1000) }

// ms writes seconds as milliseconds, or seconds from 1 s.
func ms(seconds float64) string {
	switch d := seconds * 1000; {
	case d >= 1000:
		return fmt.Sprintf("%.1f s", seconds)
	case d >= 10:
		return fmt.Sprintf("%.0f ms", d)
	default:
		return fmt.Sprintf("%.1f ms", d)
	}
}

// count writes n with thousands separators, or as millions.
func count(n float64) string {
	switch {
	case n >= 1e6 && int64(n)%1e6 == 0:
		return fmt.Sprintf("%.0f M", n/1e6)
	case n >= 1000:
		n := int64(math.Round(n))
		return fmt.Sprintf("%d,%03d", n/1000, n%1000)
	}
	return fmt.Sprintf("%.0f", n)
}

func plural(n float64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%.0f %ss", n, unit)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

var benchBlock = regexp.MustCompile(`(?s)(<!-- bench:(\w+) -->\n).*?(<!-- /bench -->)`)

// renderBenchmarks returns page, named name, with the block of each of
// tables made again from its runs.
func renderBenchmarks(t *testing.T, name string, page []byte, tables []benchTable) []byte {
	t.Helper()
	found := map[string]bool{}
	out := benchBlock.ReplaceAllFunc(page, func(block []byte) []byte {
		m := benchBlock.FindSubmatch(block)
		prefix := string(m[2])
		i := slices.IndexFunc(tables, func(b benchTable) bool { return b.prefix == prefix })
		if i < 0 {
			t.Errorf("%s: no table named %s", name, prefix)
			return block
		}
		found[prefix] = true
		runs := tables[i].runs
		if runs == nil {
			glob := cmp.Or(tables[i].glob, "bench/"+prefix+"-*.json")
			files, _ := filepath.Glob(glob)
			slices.SortStableFunc(files, func(a, b string) int { return storeRank(a) - storeRank(b) })
			for _, f := range files {
				runs = append(runs, strings.TrimSuffix(strings.TrimPrefix(f, "bench/"), ".json"))
			}
		}
		var b bytes.Buffer
		b.Write(m[1])
		b.WriteString(tables[i].header + "\n")
		for _, r := range runs {
			b.WriteString(tables[i].row(r, loadRun(t, r)) + "\n")
		}
		b.Write(m[3])
		return b.Bytes()
	})
	for _, b := range tables {
		if !found[b.prefix] {
			t.Errorf("%s: no <!-- bench:%s --> block", name, b.prefix)
		}
	}
	return out
}

// checkGenerated fails when a table of the page at path is not what its
// runs make (-update rewrites it), or shows a figure a run lacks.
func checkGenerated(t *testing.T, path string, tables []benchTable) {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := renderBenchmarks(t, path, page, tables)
	if bytes.Contains(want, []byte("NaN")) {
		t.Errorf("%s: a run lacks a figure its table shows", path)
	}
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		page = want
	}
	if !bytes.Equal(page, want) {
		t.Errorf("%s's tables are not what bench/*.json make; run go test ./docs -run %s -update", path, t.Name())
	}
}

// TestBenchmarksPage fails when a table of benchmarks.md is not what
// bench/*.json make (go test ./docs -run TestBenchmarksPage -update
// rewrites them), when a figure a table shows is missing from a run, or
// when a run in bench/ belongs to no table.
func TestBenchmarksPage(t *testing.T) {
	checkGenerated(t, "benchmarks.md", benchTables)
	files, _ := filepath.Glob("bench/*.json")
	for _, f := range files {
		if !slices.ContainsFunc(benchTables, func(b benchTable) bool {
			return strings.HasPrefix(filepath.Base(f), b.prefix+"-")
		}) {
			t.Errorf("%s belongs to no table of benchmarks.md", f)
		}
	}
}

// TestReadmeNumbers fails when the README's headline numbers are not
// what their runs in bench/ make (go test ./docs -run TestReadmeNumbers
// -update rewrites them).
func TestReadmeNumbers(t *testing.T) {
	checkGenerated(t, "../README.md", readmeTables)
}
