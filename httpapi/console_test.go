package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// forecastPage is GET /v1/console/forecast's answer.
type forecastPage struct {
	From    string    `json:"from"`
	Minutes int       `json:"minutes"`
	Due     []dueJSON `json:"due"`
}

// TestConsoleForecast: on every store, claimed coupons show in the minute
// of their expires_at, a lock in that of its end, of every template or of
// the one asked; a span past 24 hours or not a number is 422 naming
// minutes, a template that is no ID 422 naming template.
func TestConsoleForecast(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		tpl := e.template(hourTemplate)
		for _, u := range []string{"u1", "u2", "u3"} {
			e.claim(u, tpl)
		}
		c := e.claim("u4", tpl)
		e.ok(e.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1", "ttl": "15m"}`), http.StatusOK, &c)
		var f forecastPage
		e.ok(e.get("/v1/console/forecast"), http.StatusOK, &f)
		from := t0.Truncate(time.Minute)
		want := []dueJSON{
			{Kind: "coupon.expire", Minute: 60, At: formatTime(from.Add(time.Hour)), Count: 3},
			{Kind: "coupon.release", Minute: 15, At: formatTime(from.Add(15 * time.Minute)), Count: 1},
		}
		if f.From != formatTime(from) || f.Minutes != 1440 || len(f.Due) != 2 || !containsDue(f.Due, want[0]) || !containsDue(f.Due, want[1]) {
			t.Fatalf("forecast: got %+v, want from %s, 1440 minutes, due %+v", f, formatTime(from), want)
		}
		e.ok(e.get("/v1/console/forecast?minutes=30"), http.StatusOK, &f)
		if len(f.Due) != 1 || f.Due[0] != want[1] {
			t.Fatalf("forecast of 30 minutes: got %+v, want only %+v", f.Due, want[1])
		}
		other := e.template(hourTemplate)
		e.claim("u5", other)
		byTemplate := map[string][]dueJSON{
			tpl:     want,
			other:   {{Kind: "coupon.expire", Minute: 60, At: formatTime(from.Add(time.Hour)), Count: 1}},
			"tpl_x": {},
		}
		for id, want := range byTemplate {
			var f forecastJSON
			e.ok(e.get("/v1/console/forecast?template="+id), http.StatusOK, &f)
			if f.Template != id || len(f.Due) != len(want) || !containsAll(f.Due, want) {
				t.Fatalf("forecast of template %s: got %+v, want due %+v", id, f, want)
			}
		}
		for q, field := range map[string]string{"minutes=0": "minutes", "minutes=1441": "minutes", "minutes=x": "minutes", "template=": "template", "template=%20x": "template"} {
			if p := e.problem(e.get("/v1/console/forecast?"+q), http.StatusUnprocessableEntity, "invalid"); !strings.Contains(p.Detail, field) {
				t.Fatalf("?%s: the problem does not name %s: %+v", q, field, p)
			}
		}
	})
}

func containsAll(ds, want []dueJSON) bool {
	for _, d := range want {
		if !containsDue(ds, d) {
			return false
		}
	}
	return true
}

func containsDue(ds []dueJSON, d dueJSON) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// TestConsoleStatus: the status holds the registry's lapse_* series (a
// histogram with its buckets) and not others, and every shard's lease.
func TestConsoleStatus(t *testing.T) {
	reg := prometheus.NewRegistry()
	lag := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "lapse_lag_seconds", Buckets: []float64{.01, 1}}, []string{"kind"})
	other := prometheus.NewCounter(prometheus.CounterOpts{Name: "go_other_total"})
	reg.MustRegister(lag, other)
	lag.WithLabelValues("coupon.expire").Observe(.5)
	e := setup(t, func(c *Config) { c.Gatherer, c.Instance = reg, "i1" })
	var s struct {
		Instance string                  `json:"instance"`
		Metrics  map[string][]sampleJSON `json:"metrics"`
		Leases   []leaseJSON             `json:"leases"`
	}
	e.ok(e.get("/v1/console/status"), http.StatusOK, &s)
	h := s.Metrics["lapse_lag_seconds"]
	if s.Instance != "i1" || len(s.Metrics) != 1 || len(h) != 1 || h[0].Labels["kind"] != "coupon.expire" || h[0].Value != 1 ||
		len(h[0].Buckets) != 2 || h[0].Buckets[0] != [2]float64{.01, 0} || h[0].Buckets[1] != [2]float64{1, 1} {
		t.Fatalf("status: got %+v", s)
	}
	if len(s.Leases) != 16 || s.Leases[3].Shard != 3 || s.Leases[3].Held {
		t.Fatalf("leases: got %+v, want 16 free shards", s.Leases)
	}
}

// TestConsoleInstances: on every store, the status lists each instance
// seen lately, by name: one that measured its clock skew with the skew in
// milliseconds and when, one that took every shard's lease with its
// shards and no skew yet.
func TestConsoleInstances(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		var s struct {
			Instances []instanceJSON `json:"instances"`
		}
		e.ok(e.get("/v1/console/status"), http.StatusOK, &s)
		if s.Instances == nil || len(s.Instances) != 0 {
			t.Fatalf("fresh store: got instances %+v, want an empty list", s.Instances)
		}
		if err := e.store.MeasuredSkew(t.Context(), store.MeasuredSkewParams{Instance: "i2", Skew: -7 * time.Millisecond}); err != nil {
			t.Fatalf("MeasuredSkew: %v", err)
		}
		if _, err := e.store.Lease(t.Context(), store.LeaseParams{Holder: "i1", TTL: time.Minute}); err != nil {
			t.Fatalf("Lease: %v", err)
		}
		e.ok(e.get("/v1/console/status"), http.StatusOK, &s)
		if len(s.Instances) != 2 {
			t.Fatalf("instances: got %+v, want i1 and i2", s.Instances)
		}
		i1, i2 := s.Instances[0], s.Instances[1]
		if i1.Name != "i1" || i1.SkewMS != nil || i1.SkewAt != nil || len(i1.Shards) != storetype.Shards/2 || !slices.IsSorted(i1.Shards) {
			t.Fatalf("i1: got %+v, want its fair half of the shards (i2 is live too) and no skew", i1)
		}
		if i2.Name != "i2" || i2.SkewMS == nil || *i2.SkewMS != -7 || i2.SkewAt == nil || *i2.SkewAt == "" || len(i2.Shards) != 0 {
			t.Fatalf("i2: got %+v, want skew -7 ms and no shard", i2)
		}
	}, func(c *Config) { c.Instance = "i1" })
}

// TestEventsFilter: ?type= and ?subject= keep the matching events of the
// page read, and next moves past those filtered out; a filter breaking
// the ID rules is 422 naming it.
func TestEventsFilter(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	a, b := e.claim("u1", tpl), e.claim("u2", tpl)
	all := e.events("/v1/events")
	byType := e.events("/v1/events?type=coupon.claimed")
	if len(byType.Events) != 2 || byType.Next != all.Next {
		t.Fatalf("type=coupon.claimed: got %+v, want the 2 claims, next %s", byType, all.Next)
	}
	bySubject := e.events("/v1/events?type=coupon.claimed&subject=" + b.ID)
	if len(bySubject.Events) != 1 || bySubject.Events[0].Subject != b.ID || bySubject.Next != all.Next {
		t.Fatalf("subject=%s: got %+v, want b's claim, next %s", b.ID, bySubject, all.Next)
	}
	none := e.events("/v1/events?limit=1&subject=" + a.ID + "x")
	if len(none.Events) != 0 || none.Next == "0" {
		t.Fatalf("no match: got %+v, want no event and next past the first", none)
	}
	for _, q := range []string{"type=", "subject=%00", "subject=" + strings.Repeat("x", 1000)} {
		p := e.problem(e.get("/v1/events?"+q), http.StatusUnprocessableEntity, "invalid")
		if name, _, _ := strings.Cut(q, "="); !strings.Contains(p.Detail, name) {
			t.Fatalf("?%s: the problem does not name %s: %+v", q, name, p)
		}
	}
}

// TestConsoleAssets: the page and its files are served to anyone, with
// their content types; a path under /console/ that names no file is the
// API's 404 problem.
func TestConsoleAssets(t *testing.T) {
	e := setup(t)
	e.createToken("ops", credential.Admin)
	for path, ctype := range map[string]string{"/": "text/html", "/console/console.js": "text/javascript", "/console/console.css": "text/css"} {
		res := e.get(path)
		if res.status != http.StatusOK || !strings.HasPrefix(res.header.Get("Content-Type"), ctype) || len(res.body) == 0 {
			t.Fatalf("GET %s: got %d %q, want 200 %s", path, res.status, res.header.Get("Content-Type"), ctype)
		}
	}
	for _, path := range []string{"/console/", "/console/nope.js", "/index.html"} {
		e.problem(e.get(path), http.StatusNotFound, "not-found")
	}
}

// TestConsoleOff: with NoConsole, the page and its files are unknown
// routes, and the API still answers; with the console, the page carries
// the Content-Security-Policy that lets it run only the server's script.
func TestConsoleOff(t *testing.T) {
	on := setup(t)
	if res := on.get("/"); res.status != http.StatusOK || res.header.Get("Content-Security-Policy") != contentSecurityPolicy ||
		!strings.Contains(contentSecurityPolicy, "script-src 'self'") {
		t.Fatalf("GET /: got %d with CSP %q, want 200 with %q", res.status, res.header.Get("Content-Security-Policy"), contentSecurityPolicy)
	}
	off := setup(t, func(c *Config) { c.NoConsole = true })
	for _, path := range []string{"/", "/console/console.js", "/console/console.css"} {
		off.problem(off.get(path), http.StatusNotFound, "not-found")
	}
	off.ok(off.get("/v1/templates"), http.StatusOK, &struct{}{})
}

// TestConsoleEmbedded: the status says whether the store is embedded,
// for the console to hide the shard leases an embedded store has none of.
func TestConsoleEmbedded(t *testing.T) {
	for _, embedded := range []bool{false, true} {
		e := setup(t, func(c *Config) { c.Embedded = embedded })
		var s struct {
			Embedded bool `json:"embedded"`
		}
		if e.ok(e.get("/v1/console/status"), http.StatusOK, &s); s.Embedded != embedded {
			t.Fatalf("embedded %v: status says %v", embedded, s.Embedded)
		}
	}
}
