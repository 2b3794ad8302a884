package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// sequenceBatch bounds the records one pass of sequence numbers.
const sequenceBatch = 1000

// Records numbers the committed records that have no position yet, then
// reads the records holding the events after the cursor p.After, one at a
// time, until p.Each has enough.
func (e *executor) Records(ctx context.Context, p driver.RecordsParams) error {
	if err := e.sequence(ctx); err != nil {
		return err
	}
	rows, err := e.query(ctx, "Records", p.After, p.Limit, storetype.MaxRecord)
	return sqlfile.Each(rows, err, sqlfile.ScanRecord, p.Each)
}

// FeedEnd numbers the committed records that have none, then reads the
// last position handed out: the head of the feed holds every event
// committed before the call.
func (e *executor) FeedEnd(ctx context.Context) (int64, error) {
	if err := e.sequence(ctx); err != nil {
		return 0, err
	}
	return e.sqlc().FeedEnd(ctx)
}

// FrontRecords reads the first limit records of the feed, without their
// bodies.
func (e *executor) FrontRecords(ctx context.Context, limit int) ([]storetype.Record, error) {
	rows, err := e.sqlc().FrontRecords(ctx, int32(limit))
	return sqlfile.Convert(rows, err, func(r dbsqlc.FrontRecordsRow) (storetype.Record, error) {
		return storetype.Record{Last: *r.Seq, N: int(r.N), Time: r.Time}, nil
	})
}

// sequence gives feed positions, in insertion order, to the committed
// records that have none (see migration 0008), one sequencer at a time:
// outside a transaction in one of its own, in one under a savepoint.
func (e *executor) sequence(ctx context.Context) error {
	pending, err := e.sqlc().HasUnsequenced(ctx)
	if err != nil || !pending {
		return err
	}
	return pgx.BeginFunc(ctx, e.q, func(tx pgx.Tx) error {
		q := dbsqlc.New(tx)
		last, err := q.LockEventSeq(ctx)
		if err != nil {
			return err
		}
		for {
			rows, err := q.Unsequenced(ctx, sequenceBatch)
			if err != nil {
				return err
			}
			var rids, seqs []int64
			for _, r := range rows {
				last += int64(r.N)
				rids, seqs = append(rids, r.Rid), append(seqs, last)
			}
			if len(rids) > 0 {
				if _, err := tx.Exec(ctx, queries.Get("Sequence"), rids, seqs); err != nil {
					return err
				}
			}
			if len(rids) < sequenceBatch {
				return q.SetEventSeq(ctx, last)
			}
		}
	})
}
