package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Records reads the records holding the events after the cursor after,
// one at a time, until each has enough.
func (s *Driver) Records(ctx context.Context, after int64, limit int, each func(storetype.Record) bool) error {
	rows, err := s.read(ctx, "Records", after, limit, storetype.MaxRecord)
	return sqlfile.Each(rows, err, func(row sqlfile.Scanner) (r storetype.Record, err error) {
		var t int64
		err = row.Scan(&r.Last, &r.N, &t, &r.Body)
		r.Time = at(t)
		return r, err
	}, each)
}

// FrontRecords reads the first limit records of the feed, without their
// bodies.
func (t *tx) FrontRecords(limit int) ([]storetype.Record, error) {
	rows, err := t.query("FrontRecords", limit)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (r storetype.Record, err error) {
		var t int64
		err = row.Scan(&r.Last, &r.N, &t)
		r.Time = at(t)
		return r, err
	})
}

// takeSeq takes the positions of a record of n events and returns the
// last; the writer is the transaction's alone, so they follow commit
// order.
func (t *tx) takeSeq(n int) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow("TakeSeq", n))
}

// writeRecords writes outbox records, each at the positions it takes.
func (t *tx) writeRecords(records []storetype.Record) error {
	for _, r := range records {
		last, err := t.takeSeq(r.N)
		if err != nil {
			return err
		}
		if _, err := t.exec("InsertRecord", last, r.N, r.ID, ms(r.Time), string(r.Body)); err != nil {
			return err
		}
	}
	return nil
}

// FeedEnd reads the last position the feed handed out.
func (s *Driver) FeedEnd(ctx context.Context) (int64, error) {
	var end int64
	err := s.readRow(ctx, "FeedEnd").Scan(&end)
	return end, err
}
