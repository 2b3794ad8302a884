package postgres_test

import (
	"net/url"
	"testing"

	"github.com/lapsehq/lapse/driver/postgres/pgtest"
)

// BenchmarkExecModes: BenchmarkTransitions' transitions from 8 workers
// under each of pgx's query exec modes that run a statement in one round
// trip, directly and through PgBouncer in transaction pooling (where
// cache_statement's named statements fail), side by side in one run.
// Lapse runs cache_statement, pgx's default, directly and cache_describe
// behind a pooler (see pooledExecMode).
func BenchmarkExecModes(b *testing.B) {
	for _, via := range []struct {
		name  string
		url   func(testing.TB) string
		modes []string
	}{
		{"direct", pgtest.SchemaURL, []string{"cache_statement", "cache_describe", "exec"}},
		{"pgbouncer", pgtest.BouncerURL, []string{"cache_describe", "exec"}},
	} {
		for _, mode := range via.modes {
			b.Run(via.name+"/"+mode, func(b *testing.B) {
				transitions(b, withParam(b, via.url(b), "default_query_exec_mode", mode), 8)
			})
		}
	}
}

// withParam returns u with its query parameter key set to value.
func withParam(t testing.TB, u, key, value string) string {
	t.Helper()
	parsed, err := url.Parse(u)
	if err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	q := parsed.Query()
	q.Set(key, value)
	parsed.RawQuery = q.Encode()
	return parsed.String()
}
