// Package querytest checks a SQL driver's named queries in its tests.
package querytest

import (
	"slices"
	"testing"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/store/storetest"
)

// CheckNames checks, in the test of a driver whose queries are names,
// that the driver has every query sqlfile runs by name
// (sqlfile.SharedQueries) and, of the others, that every query the
// driver's Go files name exists and every one is named
// (storetest.CheckQueryNames).
func CheckNames(t *testing.T, names []string) {
	t.Helper()
	for _, n := range sqlfile.SharedQueries {
		if !slices.Contains(names, n) {
			t.Errorf("no query %s, which sqlfile runs", n)
		}
	}
	own := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(sqlfile.SharedQueries, n) })
	storetest.CheckQueryNames(t, own)
}
