package drivertest

import (
	"errors"
	"testing"

	"github.com/lapsehq/lapse/storetype"
)

// Outages is the errors a database server, a proxy or the network gives,
// in the backend's own words, grouped by how a driver's Classify must
// judge them.
type Outages struct {
	// Unavailable: the store is out of reach (storetype.ErrUnavailable),
	// worth running again.
	Unavailable []error
	// Retry: worth running again, the store being reachable (a deadlock).
	Retry []error
	// Final: the transaction's own refusal, returned as it is.
	Final []error
}

// ClassifyOutages checks that classify, a driver's Classify, judges each
// error of o as its group says, and wraps it.
func ClassifyOutages(t *testing.T, classify func(error) (error, bool), o Outages) {
	t.Helper()
	for _, g := range []struct {
		errs               []error
		unavailable, retry bool
	}{{o.Unavailable, true, true}, {o.Retry, false, true}, {o.Final, false, false}} {
		for _, err := range g.errs {
			out, retry := classify(err)
			if errors.Is(out, storetype.ErrUnavailable) != g.unavailable || retry != g.retry || !errors.Is(out, err) {
				t.Errorf("Classify(%v): got %v, retry %v; want unavailable %v, retry %v, wrapping it", err, out, retry, g.unavailable, g.retry)
			}
		}
	}
}
