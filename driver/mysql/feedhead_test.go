package mysql_test

import (
	"testing"

	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/storetype"
)

// TestFeedHeadReads: with 1,000,000 events stored, ten a record, the
// feed's head is one row read, and the page of 100 events before it
// reads about its ten records of the index: what the console's events
// page costs does not grow with the feed.
func TestFeedHeadReads(t *testing.T) {
	dbURL := freshDB(t)
	open(t, dbURL, mysql.Options{})
	db := rawDB(t, dbURL)
	ctx := t.Context()
	// 100,000 records: the product of five tables of ten digits.
	const digits = "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)"
	_, err := db.ExecContext(ctx, `INSERT INTO events (seq, n, id, time, body)
		SELECT (i + 1) * 10, 10, CONCAT('evt_', i), ?, '[]'
		FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d AS i
		      FROM `+digits+` a, `+digits+` b, `+digits+` c, `+digits+` e, `+digits+` f) AS s`, t0)
	if err != nil {
		t.Fatalf("seed events: %v", err)
	}
	if _, err := db.ExecContext(ctx, "UPDATE event_seq SET last = 1000000 WHERE id = 1"); err != nil {
		t.Fatalf("seed the feed's head: %v", err)
	}
	if _, err := db.ExecContext(ctx, "ANALYZE TABLE events"); err != nil {
		t.Fatalf("analyze: %v", err)
	}
	head := int64(1000000 - 100)
	for _, c := range []struct {
		query string
		args  []any
		reads int
	}{
		{"FeedEnd", nil, 2},
		{"Records", []any{head, head, head, 100, storetype.MaxRecord, 100}, 30},
	} {
		got := indexReads(t, db, mysql.QueryText(c.query, 0), c.args)
		t.Logf("%s: %d index entries read", c.query, got)
		if got > c.reads {
			t.Fatalf("%s: read %d index entries, want at most %d", c.query, got, c.reads)
		}
	}
}
