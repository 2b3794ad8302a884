package docs

import (
	"bytes"
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

// benchTable renders the runs of one kind, bench/<prefix>*.json, as a
// Markdown table: a header and a row per run.
type benchTable struct {
	prefix string
	header string
	row    func(name string, r run) string
}

// benchTables are the tables of benchmarks.md, each between
// <!-- bench:<prefix> --> and <!-- /bench -->.
var benchTables = []benchTable{
	{"storm", "| run | lapse | floor | ratio | writes p99 idle → storm | reads p99 storm | racers p99 lapse / naive / floor | steady lag p99 |\n|---|---|---|---|---|---|---|---|",
		func(name string, r run) string {
			return fmt.Sprintf("| %s, %s coupons, %s | %s | %s | %.2f | %s → %s (%.1f×) | %s | %s / %s / %s | %s |",
				storeOf(name), count(r.num("coupons")), plural(r.num("instances"), "instance"), rate(r.num("lapse.rate")), rate(r.num("floor.rate")), r.num("ratios.drain_vs_floor"),
				ms(r.num("idle.user_p99")), ms(r.num("lapse.user_p99")), r.num("ratios.user_p99_storm_vs_idle"), ms(r.num("lapse.reads.p99")),
				ms(r.num("racers.lapse.p99")), ms(r.num("racers.naive.p99")), ms(r.num("racers.floor.p99")), ms(r.num("steady.lag_p99")))
		}},
	{"accel", "| delay queue | lag p50 | p99 | max | first expiry on the instances that did not issue |\n|---|---|---|---|---|",
		func(name string, r run) string {
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
	{"hotsku", "| store | lapse, 1 bucket | lapse, 8 buckets | floor (one row) | 1 bucket / floor | 8 buckets / floor | never oversold |\n|---|---|---|---|---|---|---|",
		func(name string, r run) string {
			orders := func(k string) string {
				return fmt.Sprintf("%s (%s)", count(r.num(k+".rate")), ms(r.num(k+".latency.p99")))
			}
			return fmt.Sprintf("| %s | %s | %s | %s | %.2f | %.2f | %s |", storeOf(name), orders("lapse"), orders("bucketed"), orders("floor"),
				r.num("ratio"), r.num("bucketed_ratio"), yes(r.bool("lapse.stock_ok") && r.bool("bucketed.stock_ok") && r.bool("floor.stock_ok")))
		}},
	{"ops", "| run | void | extend | archive | user p99 idle | during void (×idle) | during extend (×idle) |\n|---|---|---|---|---|---|---|",
		func(name string, r run) string {
			return fmt.Sprintf("| %s | %s | %s | %s | %s | %s (%.1f×) | %s (%.1f×) |", storeOf(name),
				rate(r.num("void.rate")), rate(r.num("extend.rate")), rate(r.num("archive.rate")), ms(r.num("idle.writes.p99")),
				ms(r.num("void.users.writes.p99")), r.num("ratios.user_p99_void_vs_idle"),
				ms(r.num("extend.users.writes.p99")), r.num("ratios.user_p99_extend_vs_idle"))
		}},
}

// run is one benchmark's JSON.
type run map[string]any

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

// renderBenchmarks returns page with every bench block's table made
// again from bench/*.json, and the runs' names, sorted.
func renderBenchmarks(t *testing.T, page []byte) []byte {
	t.Helper()
	found := map[string]bool{}
	out := benchBlock.ReplaceAllFunc(page, func(block []byte) []byte {
		m := benchBlock.FindSubmatch(block)
		prefix := string(m[2])
		i := slices.IndexFunc(benchTables, func(b benchTable) bool { return b.prefix == prefix })
		if i < 0 {
			t.Errorf("benchmarks.md: no table named %s", prefix)
			return block
		}
		found[prefix] = true
		files, _ := filepath.Glob("bench/" + prefix + "-*.json")
		slices.SortStableFunc(files, func(a, b string) int { return storeRank(a) - storeRank(b) })
		var b bytes.Buffer
		b.Write(m[1])
		b.WriteString(benchTables[i].header + "\n")
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var r run
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			b.WriteString(benchTables[i].row(strings.TrimSuffix(filepath.Base(f), ".json"), r) + "\n")
		}
		b.Write(m[3])
		return b.Bytes()
	})
	for _, b := range benchTables {
		if !found[b.prefix] {
			t.Errorf("benchmarks.md: no <!-- bench:%s --> block", b.prefix)
		}
	}
	return out
}

// TestBenchmarksPage fails when a table of benchmarks.md is not what
// bench/*.json make (go test ./docs -run TestBenchmarksPage -update
// rewrites them), when a figure a table shows is missing from a run, or
// when a run in bench/ belongs to no table.
func TestBenchmarksPage(t *testing.T) {
	page, err := os.ReadFile("benchmarks.md")
	if err != nil {
		t.Fatal(err)
	}
	want := renderBenchmarks(t, page)
	if bytes.Contains(want, []byte("NaN")) {
		t.Errorf("benchmarks.md: a run lacks a figure its table shows")
	}
	if *update {
		if err := os.WriteFile("benchmarks.md", want, 0o644); err != nil {
			t.Fatal(err)
		}
		page = want
	}
	if !bytes.Equal(page, want) {
		t.Errorf("benchmarks.md's tables are not what bench/*.json make; run go test ./docs -run TestBenchmarksPage -update")
	}
	files, _ := filepath.Glob("bench/*.json")
	for _, f := range files {
		if !slices.ContainsFunc(benchTables, func(b benchTable) bool {
			return strings.HasPrefix(filepath.Base(f), b.prefix+"-")
		}) {
			t.Errorf("%s belongs to no table of benchmarks.md", f)
		}
	}
}
