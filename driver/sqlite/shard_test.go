package sqlite_test

import (
	"fmt"
	"testing"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/storetype"
)

// TestShardAsPostgres: lapse_shard gives each ID the shard PostgreSQL
// stores with its row (driver/postgres/migrations/0004_shards.sql), and
// the IDs tried fall in every shard.
func TestShardAsPostgres(t *testing.T) {
	ids := []string{"", "a", "cpn_01JD3F6W2B8K4Q9T7X5M1N0R2S", "ord_01JD3F6W2B8K4Q9T7X5M1N0R2S", "é 🎟"}
	for i := range 200 {
		ids = append(ids, fmt.Sprintf("cpn_%026d", i))
	}
	pg := pgtest.Connect(t, pgtest.SchemaURL(t))
	rows, err := pg.Query(t.Context(), "SELECT id, get_byte(decode(md5(id), 'hex'), 15) % 16 FROM unnest($1::text[]) AS id", ids)
	want, err := sqlfile.Read(rows, err, sqlfile.ScanCounts)
	if err != nil || len(want) != len(ids) {
		t.Fatalf("postgres shards: %d of %d ids, err %v", len(want), len(ids), err)
	}

	path := tempPath(t)
	open(t, path, sqlite.Options{})
	db := rawDB(t, path)
	seen := map[int64]bool{}
	for _, id := range ids {
		var got int64
		if err := db.QueryRowContext(t.Context(), "SELECT lapse_shard(?)", id).Scan(&got); err != nil {
			t.Fatalf("lapse_shard(%q): %v", id, err)
		}
		if got != want[id] {
			t.Fatalf("lapse_shard(%q) = %d, PostgreSQL says %d", id, got, want[id])
		}
		seen[got] = true
	}
	if len(seen) != storetype.Shards {
		t.Fatalf("the ids fell in %d shards, want all %d", len(seen), storetype.Shards)
	}
}
