package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/internal/testtool"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// browse opens a headless chromium on url, closed when t ends.
func browse(t *testing.T, url string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(testtool.Path(t, "LAPSE_TEST_CHROMIUM", "chromium", "chromium")),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1400, 1600))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s in chromium: %v", url, err)
	}
	return ctx
}

// shown evaluates the JavaScript expression js, a string, in the page
// until want accepts it; it fails t after a minute, with the last value.
func shown(t *testing.T, ctx context.Context, what, js string, want func(string) bool) string {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: evaluate: %v", what, err)
		}
		if want(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for the page to show %s; it shows %q", what, got)
		}
	}
}

// screenshot saves the element sel finds, or the whole page if sel is
// "", as name in t's temporary folder and, if LAPSE_SCREENSHOT_DIR is
// set, there too.
func screenshot(t *testing.T, ctx context.Context, name, sel string) {
	t.Helper()
	shot := chromedp.FullScreenshot(100)
	if sel != "" {
		shot = chromedp.Screenshot(chromedp.CSS(sel))
	}
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dirs := []string{t.TempDir()}
	if d := os.Getenv("LAPSE_SCREENSHOT_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if err := os.WriteFile(filepath.Join(d, name), png, 0o644); err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		t.Logf("screenshot %s", filepath.Join(d, name))
	}
}

// TestConsoleInBrowser drives the console in a real chromium against a
// real lapse on each store: the forecast shows a storm of claimed coupons
// an hour ahead at its minute; a coupon expiring seconds after the page
// loaded shows in the latest events and the expiry counter without a
// reload; the templates list newest first, and an embedded store shows
// no shard table; a replay, confirmed against the count of dead letters
// the API reads, delivers a webhook's dead letters once its receiver is
// back; and a void of the storm's template shows its dry run's counts,
// as the API's, runs once confirmed, and its progress is watched to the
// end (operateInBrowser); a coupon is found with its history
// (findInBrowser).
func TestConsoleInBrowser(t *testing.T) { onEach(t, testConsoleInBrowser) }

func testConsoleInBrowser(t *testing.T, be backend) {
	rc := outboxtest.NewReceiver(t, outboxtest.TestSecret)
	down := func(int, []outboxtest.Event) (int, time.Duration) { return http.StatusServiceUnavailable, 0 }
	rc.SetAnswer(down)
	s := start(t, be.store(t), "--sink", "webhook+"+rc.URL+"#name=hooks", "--sink-secret", outboxtest.TestSecret,
		"--sink-max-attempts", "1", "--operation-batch", "10")
	const n = 120
	stormAt := time.Now().Add(time.Hour)
	stormTpl, storm := s.seed(t, n, stormAt)

	ctx := browse(t, s.base+"/")
	stormMinute := stormAt.UTC().Truncate(time.Minute)
	peak := shown(t, ctx, "the storm as the forecast's peak",
		`(() => { const li = document.querySelector('#peaks li[data-at]'); const k = li && li.querySelector('[data-kind="coupon.expire"]');
		   const bar = document.querySelector('#forecast-chart rect[data-kind="coupon.expire"]');
		   return k && bar ? li.dataset.at + ' ' + k.dataset.count + ' ' + bar.dataset.at + ' ' + bar.dataset.count : ''; })()`,
		func(s string) bool { return s != "" })
	f := strings.Fields(peak)
	at, err := time.Parse(time.RFC3339Nano, f[0])
	if err != nil || !at.Equal(stormMinute) || f[1] != strconv.Itoa(n) || f[2] != f[0] || f[3] != f[1] {
		t.Fatalf("forecast peak and bar: got %q, want %d coupon expiries at %s", peak, n, stormMinute.Format(time.RFC3339))
	}

	// A coupon expiring three seconds from now, while the page is open.
	soonTpl := clienttest.Must(s.api.CreateTemplate(t.Context(), client.NewTemplate{Name: "soon", Value: 100,
		Validity: client.Validity{EndsAt: time.Now().Add(3 * time.Second)}})).On(t)
	soon := clienttest.Must(s.api.Claim(t.Context(), "live", client.ClaimParams{TemplateID: soonTpl.ID})).On(t)
	shown(t, ctx, "the expiry in the latest events",
		`document.querySelector('#events tr[data-type="coupon.expired"][data-subject="`+soon.ID+`"]') ? 'yes' : ''`,
		func(s string) bool { return s == "yes" })
	findInBrowser(t, ctx, s, soon.ID, "coupon.claimed coupon.expired")
	shown(t, ctx, "the expiry counted", `document.getElementById('expired-total').textContent`,
		func(s string) bool { return s == "1" })
	if be.name == "sqlite" {
		shown(t, ctx, "no shard table on the embedded store", `document.getElementById('shards').hidden ? 'hidden' : 'shown'`,
			func(s string) bool { return s == "hidden" })
	} else {
		shown(t, ctx, "this instance with its clock skew", `(document.querySelector('#instances tr[data-instance] .skew') || {}).textContent || ''`,
			func(s string) bool { return strings.HasSuffix(s, " ms") })
	}
	shown(t, ctx, "the newest template first", `(document.querySelector('#templates tr[data-template]') || {dataset: {}}).dataset.template || ''`,
		func(s string) bool { return s == soonTpl.ID })

	// Every claim of the storm is a dead letter of the receiver that was
	// down; it is back, and the replay, confirmed against their count,
	// sends them again.
	var dead int64
	waitUntil(t, "every event delivered or a dead letter", func() bool {
		sk := clienttest.Must(s.api.Sinks(t.Context())).On(t)[0]
		dead = sk.DeadLetters
		return sk.Lag == 0 && dead > int64(n)
	})
	shown(t, ctx, "the dead letters and an enabled replay button",
		`(() => { const b = document.getElementById('replay-hooks'); return b && !b.disabled ?
		   b.closest('tr').querySelector('.dead').textContent : ''; })()`,
		func(s string) bool { return s == strconv.FormatInt(dead, 10) })
	screenshot(t, ctx, "overview.png", "")
	rc.SetAnswer(nil)
	click(t, ctx, "#replay-hooks")
	confirmation(t, ctx, fmt.Sprintf("replay the %d dead letters of hooks:", dead))
	click(t, ctx, "#confirm-yes")
	shown(t, ctx, "the replay's answer", `document.querySelector('#sinks tr[data-sink="hooks"] .replayed').textContent`,
		func(s string) bool { return strings.Contains(s, "queued") })
	void := operateInBrowser(t, ctx, s, client.NewOperation{Kind: "void", TemplateID: stormTpl, Reason: "storm"})
	if void.Counts.Voided != int64(n) {
		t.Fatalf("the void: %d voided, want %d", void.Counts.Voided, n)
	}
	screenshot(t, ctx, "void.png", "#operations-box")
	waitUntil(t, "the storm's claims replayed to the receiver", func() bool {
		got := map[string]bool{}
		for _, e := range rc.Events() {
			if e.Type == "coupon.claimed" {
				got[e.Subject] = true
			}
		}
		for _, c := range storm {
			if !got[c.ID] {
				return false
			}
		}
		return true
	})
}

// TestConsoleSharedStore: the console's data come from the store the
// instances share: two instances show the same storm in their forecast,
// and the status of either shows every shard leased to one of the two,
// and both instances with their measured clock skew and their shards.
func TestConsoleSharedStore(t *testing.T) { onShared(t, testConsoleShared) }

func testConsoleShared(t *testing.T, be backend) {
	ss := startShared(t, be.store(t), 2)
	const n = 50
	stormAt := time.Now().Add(time.Hour)
	ss[0].seed(t, n, stormAt)
	for _, s := range ss {
		f := clienttest.Must(s.api.Forecast(t.Context(), client.ForecastQuery{})).On(t)
		if len(f.Due) != 1 {
			t.Fatalf("forecast of %s: got %+v, want one minute due", s.base, f.Due)
		}
		if f.Due[0].Kind != "coupon.expire" || f.Due[0].Count != n || !f.Due[0].At.Equal(stormAt.UTC().Truncate(time.Minute)) {
			t.Fatalf("forecast of %s: got %+v, want %d coupon.expire at %s", s.base, f.Due, n, stormAt.UTC().Truncate(time.Minute))
		}
	}
	waitUntil(t, "every shard leased to i0 or i1, and both with their skew, as both see it", func() bool {
		for _, s := range ss {
			st := clienttest.Must(s.api.Status(t.Context())).On(t)
			held := map[string]int{}
			for _, l := range st.Leases {
				if l.Held {
					held[l.Holder]++
				}
			}
			if len(st.Leases) != 16 || held["i0"] == 0 || held["i1"] == 0 || held["i0"]+held["i1"] != 16 || len(st.Instances) != 2 {
				return false
			}
			for i, in := range st.Instances {
				if in.Name != fmt.Sprintf("i%d", i) || in.SkewMS == nil || len(in.Shards) != held[in.Name] {
					return false
				}
			}
		}
		return true
	})
}

// findInBrowser finds coupon id in the console: the page shows it as the
// API reads it, and its history, oldest first, as the feed holds it, of
// the event types types.
func findInBrowser(t *testing.T, ctx context.Context, s *server, id, types string) {
	t.Helper()
	find(t, ctx, id)
	c := clienttest.Must(s.api.Coupon(t.Context(), id)).On(t)
	if got := foundField(t, ctx, "status"); got != c.Status {
		t.Fatalf("found %s: the page shows it %s, the API reads it %s", id, got, c.Status)
	}
	if got := checkHistory(t, ctx, s, id); got != types {
		t.Fatalf("history of %s: %q, want %q", id, got, types)
	}
	screenshot(t, ctx, "coupon.png", "#find-box")
}

// TestConsoleOff: lapse serve --console=false serves no console, and the
// API as ever. (The flag touches no store: SQLite's is enough.)
func TestConsoleOff(t *testing.T) {
	s := start(t, sqliteBackend.store(t), "--console=false")
	for path, want := range map[string]int{"/": http.StatusNotFound, "/console/console.js": http.StatusNotFound, "/healthz": http.StatusOK} {
		res, err := http.Get(s.base + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("GET %s: got %d, want %d", path, res.StatusCode, want)
		}
	}
}
