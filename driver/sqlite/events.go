package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Records reads the records holding the events after the cursor p.After,
// one at a time, until p.Each has enough.
func (e *executor) Records(ctx context.Context, p driver.RecordsParams) error {
	rows, err := e.query(ctx, "Records", p.After, p.Limit, storetype.MaxRecord)
	return sqlfile.Each(rows, err, func(row sqlfile.Scanner) (r storetype.Record, err error) {
		var t int64
		err = row.Scan(&r.Last, &r.N, &t, &r.Body)
		r.Time = at(t)
		return r, err
	}, p.Each)
}

// FrontRecords reads the first limit records of the feed, without their
// bodies.
func (e *executor) FrontRecords(ctx context.Context, limit int) ([]storetype.Record, error) {
	rows, err := e.query(ctx, "FrontRecords", limit)
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
func (t *tx) takeSeq(ctx context.Context, n int) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow(ctx, "TakeSeq", n))
}

// writeRecords writes outbox records, each at the positions it takes.
func (t *tx) writeRecords(ctx context.Context, records []storetype.Record) error {
	for _, r := range records {
		last, err := t.takeSeq(ctx, r.N)
		if err != nil {
			return err
		}
		if _, err := t.exec(ctx, "InsertRecord", last, r.N, r.ID, ms(r.Time), string(r.Body)); err != nil {
			return err
		}
	}
	return nil
}
