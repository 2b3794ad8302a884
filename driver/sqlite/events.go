package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
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
	rows, err := e.q().FrontRecords(ctx, int64(limit))
	return sqlfile.Convert(rows, err, func(r dbsqlc.FrontRecordsRow) (storetype.Record, error) {
		return storetype.Record{Last: r.Seq, N: int(r.N), Time: at(r.Time)}, nil
	})
}

// takeSeq takes the positions of a record of n events and returns the
// last; the writer is the transaction's alone, so they follow commit
// order.
func (t *tx) takeSeq(ctx context.Context, n int) (int64, error) {
	return t.q().TakeSeq(ctx, int64(n))
}

// writeRecords writes outbox records, each at the positions it takes.
func (t *tx) writeRecords(ctx context.Context, records []storetype.Record) error {
	for _, r := range records {
		last, err := t.takeSeq(ctx, r.N)
		if err != nil {
			return err
		}
		err = t.q().InsertRecord(ctx, dbsqlc.InsertRecordParams{Seq: last, N: int64(r.N), ID: r.ID, Time: ms(r.Time), Body: string(r.Body)})
		if err != nil {
			return err
		}
	}
	return nil
}

// FeedEnd reads the last position the feed handed out.
func (e *executor) FeedEnd(ctx context.Context) (int64, error) {
	return e.q().FeedEnd(ctx)
}
