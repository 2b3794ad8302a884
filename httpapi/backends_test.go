package httpapi

import (
	"testing"

	"github.com/lapsehq/lapse/store/backendtest"
)

// onEveryStore runs test once per backend of backendtest.All, as a subtest
// of its name, against a server over a fresh store of that backend,
// configured by opts (see serveStore).
func onEveryStore(t *testing.T, test func(t *testing.T, e *env), opts ...func(*Config)) {
	t.Helper()
	for _, b := range backendtest.All(t) {
		t.Run(b.Name, func(t *testing.T) { test(t, serveStore(t, b.Open(t), opts...)) })
	}
}
