package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
)

// TestBenchStorm runs `lapse bench storm` end to end on SQLite (100,000
// coupons, one engine), PostgreSQL (20,000, three engines) and MySQL
// (20,000, two engines) and checks that its JSON holds every
// figure with a sane value, that the plot is an SVG of the three drains,
// that every phase drew a progress bar and that the seed copy is gone. It
// asserts nothing about speed.
func TestBenchStorm(t *testing.T) {
	onStormStores(t, func(t *testing.T, kind, url string, leftBehind func()) {
		n, instances := 20000, map[string]int{"postgres": 3, "mysql": 2}[kind]
		if kind == "sqlite" {
			n, instances = 100000, 1
		}
		testBenchStorm(t, kind, url, n, instances, leftBehind)
	})
}

// TestBenchStormPaced runs `lapse bench storm --storm-user-budget 1.5` end
// to end on each store (100,000 coupons on SQLite, 5,000 and two engines
// on PostgreSQL and MySQL): the same checks as TestBenchStorm, and a trace of the pace
// from before T0 to the storm's end whose every point is a speed the pace
// can take, which heard an idle baseline and slowed the storm that met
// the users. It asserts nothing about speed.
func TestBenchStormPaced(t *testing.T) {
	onStormStores(t, func(t *testing.T, kind, url string, leftBehind func()) {
		n, instances := 5000, 2
		if kind == "sqlite" { // a storm of 5,000 drains on SQLite before the pace is traced once
			n, instances = 100000, 1
		}
		j := testBenchStorm(t, kind, url, n, instances, leftBehind, "--storm-user-budget", "1.5")
		if got := j.num("user_budget"); got != 1.5 {
			t.Fatalf("user_budget: got %v, want 1.5", got)
		}
		points, ok := j.get("pace").([]any)
		if !ok || len(points) == 0 {
			t.Fatalf("pace: got %v, want the pace's trace", j.get("pace"))
		}
		reasons := map[string]bool{"no_users": true, "measuring": true, "starting": true, "over_budget": true, "under_budget": true}
		var heard, slowed bool
		for i, pt := range points {
			p := jsonFields{t: t, root: pt.(map[string]any)}
			batch, share, reason := p.num("batch"), p.num("share"), p.str("reason")
			if batch < 20 || batch > 1000 || !(share > 0 && share <= 1) || !reasons[reason] {
				t.Fatalf("pace[%d]: batch %v share %v reason %q: not a speed the pace takes", i, batch, share, reason)
			}
			heard = heard || p.num("idle_p99") > 0
			slowed = slowed || reason != "no_users" && reason != "measuring" && batch*share < 1000
		}
		first, last := points[0].(map[string]any)["t"].(float64), points[len(points)-1].(map[string]any)["t"].(float64)
		if first >= 0 || last < 0 {
			t.Fatalf("pace: traced from %v s to %v s of T0, want from before it to after", first, last)
		}
		if !heard || !slowed {
			t.Fatalf("pace: heard an idle baseline %v, slowed the storm %v; want both:\n%v", heard, slowed, points)
		}
	})
}

// onStormStores runs bench on a new SQLite file, PostgreSQL database and
// MySQL database, each with a leftBehind that fails if the bench left
// its store's seed copy or databases behind.
func onStormStores(t *testing.T, bench func(t *testing.T, kind, url string, leftBehind func())) {
	t.Run("sqlite", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "bench.db")
		bench(t, "sqlite", "sqlite:"+db, func() {
			if _, err := os.Stat(db + ".seed"); !os.IsNotExist(err) {
				t.Fatalf("the seed copy was left behind (stat: %v)", err)
			}
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url, name, existing := pgtest.NewDatabase(t)
		bench(t, "postgres", url, func() {
			if left := existing(name, name+"_seed"); len(left) > 0 {
				t.Fatalf("databases left behind: %v", left)
			}
		})
	})
	t.Run("mysql", func(t *testing.T) {
		url, name, existing := mysqltest.NewDatabase(t)
		bench(t, "mysql", url, func() {
			if left := existing(name, name+"_seed"); len(left) > 0 {
				t.Fatalf("databases left behind: %v", left)
			}
		})
	})
}

// runBench runs lapse bench with args and returns its JSON result, after
// checking it names the store kind, and what it wrote to stderr.
func runBench(t *testing.T, kind string, args ...string) (jsonFields, string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"bench"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("lapse bench %s: %v; stderr:\n%s", args[0], err, stderr.String())
	}
	var res map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("decode the JSON result: %v\n%s", err, stdout.String())
	}
	j := jsonFields{t: t, root: res}
	if got := j.str("store"); got != kind {
		t.Fatalf("store: got %q, want %s", got, kind)
	}
	return j, stderr.String()
}

// testBenchStorm benches n coupons drained by instances engines on the
// store at url, whose backend is named kind, with the flags more, runs
// leftBehind once the bench is done, and returns its JSON result.
func testBenchStorm(t *testing.T, kind, url string, n, instances int, leftBehind func(), more ...string) jsonFields {
	plot := filepath.Join(t.TempDir(), "storm.svg")
	j, stderr := runBench(t, kind, append([]string{"storm", "--coupons", fmt.Sprint(n), "--idle", "2s", "--steady", "2s",
		"--instances", fmt.Sprint(instances), "--store", url, "--plot", plot}, more...)...)
	if got := j.num("coupons"); got != float64(n) {
		t.Fatalf("coupons: got %v, want %d", got, n)
	}
	if got := j.num("instances"); got != float64(instances) {
		t.Fatalf("instances: got %v, want %d", got, instances)
	}
	if got := j.num("idle.engines"); got != float64(instances) {
		t.Fatalf("idle.engines: got %v, want the %d instances' engines beside the idle load", got, instances)
	}
	j.positive("seed.seconds", "seed.rate", "idle.user_p50", "idle.user_p99")
	j.ordered("idle.user_p50", "idle.user_p99")
	for _, d := range []string{"lapse", "naive", "floor"} {
		j.positive(d+".drain_seconds", d+".rate", d+".user_p50", d+".user_p99")
		j.ordered(d+".user_p50", d+".user_p99")
		drained := float64(n) - j.num("racers."+d+".taken")
		if got, want := j.num(d+".rate"), drained/j.num(d+".drain_seconds"); math.Abs(got-want) > want*1e-9 {
			t.Fatalf("%s.rate: got %v, want (coupons - racers' taken)/drain_seconds = %v", d, got, want)
		}
		j.num("racers." + d + ".p99")
	}
	// Each operation apart, and the reads apart, where the window is
	// long enough to hold some: the idle phase and lapse's drain (the
	// naive and floor drains of a small storm may end between sessions).
	for _, ph := range []string{"idle", "lapse"} {
		for _, op := range []string{"lock", "redeem"} {
			j.num(ph + ".ops." + op + ".p99")
		}
		j.positive(ph+".reads.p50", ph+".reads.p99")
		j.ordered(ph+".reads.p50", ph+".reads.p99", ph+".reads.max")
	}
	j.ordered("lapse.lag_p50", "lapse.lag_p99", "lapse.lag_max")
	if lag := j.num("lapse.lag_p50"); lag < 0 {
		t.Fatalf("lapse.lag_p50: got %v, want >= 0 (never early)", lag)
	}
	if got := j.num("lapse.lag_max"); got > j.num("lapse.drain_seconds")+1 {
		t.Fatalf("lapse.lag_max: got %v, longer than the drain (%v s)", got, j.num("lapse.drain_seconds"))
	}
	for name, want := range map[string]float64{
		"ratios.drain_vs_floor":         j.num("lapse.rate") / j.num("floor.rate"),
		"ratios.user_p99_storm_vs_idle": j.num("lapse.user_p99") / j.num("idle.user_p99"),
		"ratios.user_p99_naive_vs_idle": j.num("naive.user_p99") / j.num("idle.user_p99"),
	} {
		if got := j.num(name); math.Abs(got-want) > want*1e-9 {
			t.Fatalf("%s: got %v, want %v", name, got, want)
		}
	}
	j.positive("steady.seconds", "steady.rate", "steady.expired", "steady.user_p50", "steady.user_p99")
	j.ordered("steady.lag_p50", "steady.lag_p99", "steady.lag_max")
	if lag := j.num("steady.lag_p50"); lag < 0 {
		t.Fatalf("steady.lag_p50: got %v, want >= 0 (never early)", lag)
	}
	if n := j.num("idle.reads.n"); n < 1 {
		t.Fatalf("idle.reads.n: got %v, want reads measured", n)
	}

	svg, err := os.ReadFile(plot)
	if err != nil {
		t.Fatalf("read the plot: %v", err)
	}
	var doc struct {
		XMLName   xml.Name `xml:"svg"`
		Polylines []struct {
			Points string `xml:"points,attr"`
		} `xml:"polyline"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("plot is not XML: %v", err)
	}
	if len(doc.Polylines) < 6 { // expired and p99 of each drain
		t.Fatalf("plot: got %d lines, want expired and p99 of lapse, naive and floor", len(doc.Polylines))
	}
	for _, phase := range []string{"seed", "idle", "lapse", "naive", "floor", "steady"} {
		full := fmt.Sprintf("\n%-6s [%s] 100%%", phase, strings.Repeat("#", 30))
		if !strings.Contains(stderr, full) {
			t.Fatalf("stderr has no full progress bar for %s:\n%s", phase, stderr)
		}
	}
	if strings.Contains(stderr, "\r") {
		t.Fatalf("stderr, a pipe, has progress bars redrawn in place:\n%q", stderr)
	}
	leftBehind()
	return j
}

// TestBenchOrders runs `lapse bench orders` end to end on SQLite,
// PostgreSQL and MySQL (100 orders a second for 3s, a 1s timeout) and checks that
// its JSON holds every figure with a sane value: every order paid or
// closed, none closed before its deadline, the stock counters whole; that
// the plot is an SVG of the close lag and that it drew a progress bar. It
// asserts nothing about speed.
func TestBenchOrders(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		testBenchOrders(t, "sqlite", "sqlite:"+filepath.Join(t.TempDir(), "orders.db"), func() {})
	})
	t.Run("postgres", func(t *testing.T) {
		url, name, existing := pgtest.NewDatabase(t)
		testBenchOrders(t, "postgres", url, func() {
			if left := existing(name); len(left) > 0 {
				t.Fatalf("databases left behind: %v", left)
			}
		})
	})
	t.Run("mysql", func(t *testing.T) {
		url, name, existing := mysqltest.NewDatabase(t)
		testBenchOrders(t, "mysql", url, func() {
			if left := existing(name); len(left) > 0 {
				t.Fatalf("databases left behind: %v", left)
			}
		})
	})
}

// testBenchOrders benches orders on the store at url, whose backend is
// named kind, and runs leftBehind once the bench is done.
func testBenchOrders(t *testing.T, kind, url string, leftBehind func()) {
	plot := filepath.Join(t.TempDir(), "orders.svg")
	j, stderr := runBench(t, kind, "orders", "--rate", "100", "--duration", "3s", "--timeout", "1s",
		"--pay-share", "0.3", "--store", url, "--plot", plot)
	for path, want := range map[string]float64{"orders": 300, "rate": 100, "timeout": 1, "pay_share": 0.3, "closed_early": 0} {
		if got := j.num(path); got != want {
			t.Fatalf("%s: got %v, want %v", path, got, want)
		}
	}
	j.positive("create_seconds", "paid", "closed", "close_lag.max", "cpus")
	if paid, closed, late := j.num("paid"), j.num("closed"), j.num("late_payments"); paid+closed != 300 || paid+late != 90 {
		t.Fatalf("paid %v + closed %v: want 300 orders, and paid + late payments (%v) = 90 (30%%)", paid, closed, late)
	}
	j.ordered("close_lag.p50", "close_lag.p99", "close_lag.max")
	if lag := j.num("close_lag.p50"); lag < 0 {
		t.Fatalf("close_lag.p50: got %v, want >= 0 (never early)", lag)
	}
	if ok, _ := j.get("stock_ok").(bool); !ok {
		t.Fatalf("stock_ok: got %v, want true", j.get("stock_ok"))
	}

	svg, err := os.ReadFile(plot)
	if err != nil {
		t.Fatalf("read the plot: %v", err)
	}
	var doc struct {
		XMLName   xml.Name   `xml:"svg"`
		Polylines []struct{} `xml:"polyline"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("plot is not XML: %v", err)
	}
	if len(doc.Polylines) != 2 {
		t.Fatalf("plot: got %d lines, want the close lag p50 and p99", len(doc.Polylines))
	}
	if full := fmt.Sprintf("orders [%s] 100%% 300/300", strings.Repeat("#", 30)); !strings.Contains(stderr, full) || strings.Contains(stderr, "\r") {
		t.Fatalf("stderr, a pipe, has no full progress bar as a line of its own:\n%q", stderr)
	}
	leftBehind()
}

// jsonFields reads dotted paths of a decoded JSON object, failing the test
// on a missing field or one of the wrong type.
type jsonFields struct {
	t    *testing.T
	root map[string]any
}

func (j jsonFields) get(path string) any {
	j.t.Helper()
	var v any = j.root
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			j.t.Fatalf("%s: no object at %q", path, k)
		}
		if v, ok = m[k]; !ok {
			j.t.Fatalf("%s: missing", path)
		}
	}
	return v
}

func (j jsonFields) num(path string) float64 { j.t.Helper(); return field[float64](j, path) }

func (j jsonFields) str(path string) string { j.t.Helper(); return field[string](j, path) }

// field returns the T at path.
func field[T any](j jsonFields, path string) T {
	j.t.Helper()
	v, ok := j.get(path).(T)
	if !ok {
		j.t.Fatalf("%s: got %v, want a %T", path, j.get(path), v)
	}
	return v
}

// positive fails unless every path holds a number above zero.
func (j jsonFields) positive(paths ...string) {
	j.t.Helper()
	for _, p := range paths {
		if v := j.num(p); !(v > 0) {
			j.t.Fatalf("%s: got %v, want > 0", p, v)
		}
	}
}

// ordered fails unless the numbers at paths never decrease.
func (j jsonFields) ordered(paths ...string) {
	j.t.Helper()
	for i := 1; i < len(paths); i++ {
		if a, b := j.num(paths[i-1]), j.num(paths[i]); a > b {
			j.t.Fatalf("%s (%v) > %s (%v)", paths[i-1], a, paths[i], b)
		}
	}
}
