package mysql

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// sequenceBatch bounds the records one pass of sequence numbers.
const sequenceBatch = 1000

// Records numbers the committed records that have no position yet (in a
// sequencing of its own, see sequence), then reads the records holding
// the events after the cursor p.After, one at a time, until p.Each has
// enough.
func (e *executor) Records(ctx context.Context, p driver.RecordsParams) error {
	if err := e.d.sequence(ctx); err != nil {
		return err
	}
	rows, err := e.query(ctx, "Records", p.After, p.After, p.After, p.Limit, storetype.MaxRecord, p.Limit)
	return sqlfile.Each(rows, err, sqlfile.ScanRecord, p.Each)
}

// FeedEnd numbers the committed records that have none, then reads the
// last position handed out: the head of the feed holds every event
// committed before the call.
func (e *executor) FeedEnd(ctx context.Context) (int64, error) {
	if err := e.d.sequence(ctx); err != nil {
		return 0, err
	}
	return e.sq().FeedEnd(ctx)
}

// FrontRecords reads the first limit records of the feed, without their
// bodies.
func (e *executor) FrontRecords(ctx context.Context, limit int) ([]storetype.Record, error) {
	rows, err := e.sq().FrontRecords(ctx, int32(limit))
	return sqlfile.Convert(rows, err, func(r dbsqlc.FrontRecordsRow) (storetype.Record, error) {
		return storetype.Record{Last: r.Seq.Int64, N: int(r.N), Time: r.Time}, nil
	})
}

// sequence gives feed positions, in insertion order, to the committed
// records that have none (see migration 0008), one sequencer at a time,
// in a transaction of its own on the read pool.
func (s *Driver) sequence(ctx context.Context) error {
	pending, err := dbsqlc.New(s.reads).HasUnsequenced(ctx)
	if err != nil || !pending {
		return err
	}
	tx, err := s.reads.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
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
		for _, r := range rows {
			last += int64(r.N)
			if err := q.Sequence(ctx, dbsqlc.SequenceParams{Seq: sql.NullInt64{Int64: last, Valid: true}, Rid: r.Rid}); err != nil {
				return err
			}
		}
		if len(rows) < sequenceBatch {
			break
		}
	}
	if err := q.SetEventSeq(ctx, last); err != nil {
		return err
	}
	return tx.Commit()
}
