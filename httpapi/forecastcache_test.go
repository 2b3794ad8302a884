package httpapi

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// TestConsoleForecastCached: on every store, a forecast answers every
// request for forecastTTL with its computed_at, a claim since unseen;
// from forecastTTL on the forecast is counted again and shows it.
func TestConsoleForecastCached(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		tpl := e.template(hourTemplate)
		e.claim("u1", tpl)
		read := func() forecastJSON {
			t.Helper()
			var f forecastJSON
			e.ok(e.get("/v1/console/forecast"), http.StatusOK, &f)
			return f
		}
		first := read()
		e.claim("u2", tpl)
		e.clock.Add(forecastTTL - time.Millisecond)
		cached := read()
		e.clock.Add(time.Millisecond)
		fresh := read()
		if first.ComputedAt != formatTime(t0) || len(first.Due) != 1 || first.Due[0].Count != 1 {
			t.Fatalf("first forecast: got %+v, want one coupon due, computed at %s", first, formatTime(t0))
		}
		if cached.ComputedAt != first.ComputedAt || len(cached.Due) != 1 || cached.Due[0].Count != 1 {
			t.Fatalf("within %s: got %+v, want the first forecast %+v", forecastTTL, cached, first)
		}
		if want := formatTime(t0.Add(forecastTTL)); fresh.ComputedAt != want || len(fresh.Due) != 1 || fresh.Due[0].Count != 2 {
			t.Fatalf("after %s: got %+v, want both coupons due, computed at %s", forecastTTL, fresh, want)
		}
	})
}

// slowForecasts is a store whose Forecast counts its calls and waits for
// release before counting.
type slowForecasts struct {
	store.Store
	calls   atomic.Int64
	release chan struct{}
}

func (s *slowForecasts) Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error) {
	s.calls.Add(1)
	<-s.release
	return s.Store.Forecast(ctx, p)
}

// TestConsoleForecastShared: concurrent requests while a forecast is being
// counted wait for that one count and all get it.
func TestConsoleForecastShared(t *testing.T) {
	st := &slowForecasts{Store: openSQLite(t), release: make(chan struct{})}
	e := serveStore(t, st)
	const n = 8
	var wg sync.WaitGroup
	got := make([]response, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { got[i], errs[i] = send(e.url, "GET", "/v1/console/forecast", "", nil) })
	}
	time.Sleep(200 * time.Millisecond) // the requests arrive while the first count waits
	close(st.release)
	wg.Wait()
	for i := range n {
		if errs[i] != nil || got[i].status != http.StatusOK || string(got[i].body) != string(got[0].body) {
			t.Fatalf("request %d: got %d %s (%v), want 200 and the others' forecast %s", i, got[i].status, got[i].body, errs[i], got[0].body)
		}
	}
	if c := st.calls.Load(); c != 1 {
		t.Fatalf("%d concurrent requests counted the forecast %d times, want once", n, c)
	}
}
