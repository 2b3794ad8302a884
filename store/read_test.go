package store_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/outagetest"
	"github.com/lapsehq/lapse/storetype"
)

// TestReadsTerminated: while the server itself ends the store's
// connections, again and again for 2 s (PostgreSQL's pg_terminate_backend,
// answered 57P01 admin_shutdown; MariaDB's KILL CONNECTION: see
// outagetest.Terminator), every read outside a transaction answers
// either its result, having run again on a new connection, or
// storetype.ErrUnavailable: never the backend's raw error, which the
// API would answer 500. Once the server lets them be, every read
// succeeds. SQLite, a file in the process, has no server to end its
// connections: see outagetest.
func TestReadsTerminated(t *testing.T) {
	for _, b := range outagetest.Networked(t) {
		t.Run(b.Name, func(t *testing.T) {
			ctx := t.Context()
			st := b.Open(t)
			terminate := b.Terminator(t)
			now := time.Now()
			reads := map[string]func() error{
				"Templates": func() error {
					_, err := st.Templates(ctx, storetype.TemplatesParams{Limit: 10})
					return err
				},
				"UserCoupons": func() error {
					_, err := st.UserCoupons(ctx, storetype.UserCouponsParams{UserID: "u1", Now: now, Limit: 10})
					return err
				},
				"Events": func() error {
					_, err := st.Events(ctx, store.EventsParams{Limit: 10})
					return err
				},
				"Forecast": func() error {
					_, err := st.Forecast(ctx, storetype.ForecastParams{From: now, Width: time.Minute, Buckets: 60})
					return err
				},
				"Stats": func() error {
					_, err := st.Stats(ctx, now)
					return err
				},
				"Clock": func() error {
					_, err := st.Clock(ctx)
					return err
				},
			}

			var (
				wg          sync.WaitGroup
				mu          sync.Mutex
				ok, outages int
			)
			stop := time.Now().Add(2 * time.Second)
			for name, read := range reads {
				wg.Go(func() {
					for time.Now().Before(stop) {
						err := read()
						if err != nil && !errors.Is(err, storetype.ErrUnavailable) {
							t.Errorf("%s while the server ends connections: %v; want a result or ErrUnavailable", name, err)
							return
						}
						mu.Lock()
						if err == nil {
							ok++
						} else {
							outages++
						}
						mu.Unlock()
					}
				})
			}
			ended := 0
			for time.Now().Before(stop) {
				n, err := terminate(ctx)
				if err != nil {
					t.Errorf("end the store's connections: %v", err)
					break
				}
				ended += n
				time.Sleep(20 * time.Millisecond)
			}
			wg.Wait()
			t.Logf("%d connections ended; reads meanwhile: %d answered, %d unavailable", ended, ok, outages)
			if ended == 0 {
				t.Fatalf("no connection of the store's was ended: the reads met no outage")
			}
			for name, read := range reads {
				if err := read(); err != nil {
					t.Errorf("%s once the server lets the connections be: %v", name, err)
				}
			}
		})
	}
}
