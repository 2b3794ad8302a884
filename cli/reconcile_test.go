package cli

import (
	"net/http"
	"strings"
	"testing"
)

// TestServeReconcileInterval: on every store, `lapse serve` reconciles
// by default and exports lapse_reconcile_drift per check, at zero on a
// store in step; --reconcile-interval 0 turns it off, and the gauge with
// it.
func TestServeReconcileInterval(t *testing.T) {
	for name, storeURL := range serveStores {
		t.Run(name, func(t *testing.T) {
			var args []string
			if storeURL != nil {
				args = append(args, "--store", storeURL(t))
			}
			on := startServe(t, append(args, "--repair")...)
			if _, body := on.call(t, http.MethodGet, "/metrics", ""); !strings.Contains(body, `lapse_reconcile_drift{check="timer"} 0`) {
				t.Fatalf("reconciling: /metrics lacks lapse_reconcile_drift{check=\"timer\"} 0:\n%s", body)
			}
			off := startServe(t, append(args, "--reconcile-interval", "0")...)
			if _, body := off.call(t, http.MethodGet, "/metrics", ""); strings.Contains(body, "lapse_reconcile_drift") {
				t.Fatalf("--reconcile-interval 0: /metrics exports lapse_reconcile_drift:\n%s", body)
			}
		})
	}
}
