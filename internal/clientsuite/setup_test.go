package clientsuite_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/backendtest"
	"github.com/lapsehq/lapse/timer"
)

// onEach runs test on a fresh store of each backend, as a subtest named
// after it.
func onEach(t *testing.T, test func(t *testing.T, st store.Store)) {
	for _, be := range backendtest.All(t) {
		t.Run(be.Name, func(t *testing.T) { test(t, be.Open(t)) })
	}
}

// now is the servers' clock, at the stores' millisecond.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// serve starts the API over st behind wrap (nil: none) and returns a
// client of it that retries without waiting long.
func serve(t *testing.T, st store.Store, wrap func(http.Handler) http.Handler) *client.Client {
	t.Helper()
	var h http.Handler = httpapi.New(httpapi.Config{Store: st, Now: now})
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return clienttest.New(t, srv.URL, client.WithRetry(client.Retry{Attempts: 3, Backoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond}))
}

// work starts an engine on st that works its bulk operations, looking
// for one every 10 ms, as lapse serve would; t stops it.
func work(t *testing.T, st store.Store) {
	t.Helper()
	eng := engine.New(engine.Config{Store: st, Wheel: timer.NewWheel(10*time.Millisecond, 1024, now), Now: now, OperationPoll: 10 * time.Millisecond})
	if err := eng.Start(t.Context()); err != nil {
		t.Fatalf("start engine: %v", err)
	}
	t.Cleanup(eng.Stop)
}

// hourTemplate is a template whose coupons last an hour.
var hourTemplate = client.NewTemplate{Name: "¥20 off", Value: 2000, Validity: client.Validity{Duration: client.Duration(time.Hour)}}
