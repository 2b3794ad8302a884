package mysql

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
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
	return sqlfile.Each(rows, err, func(row sqlfile.Scanner) (r storetype.Record, err error) {
		return r, row.Scan(&r.Last, &r.N, &r.Time, &r.Body)
	}, p.Each)
}

// FrontRecords reads the first limit records of the feed, without their
// bodies.
func (e *executor) FrontRecords(ctx context.Context, limit int) ([]storetype.Record, error) {
	rows, err := e.query(ctx, "FrontRecords", limit)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (r storetype.Record, err error) {
		return r, row.Scan(&r.Last, &r.N, &r.Time)
	})
}

// sequence gives feed positions, in insertion order, to the committed
// records that have none (see migration 0008), one sequencer at a time,
// in a transaction of its own on the read pool.
func (s *Driver) sequence(ctx context.Context) error {
	var pending bool
	if err := s.reads.QueryRowContext(ctx, queries.Get("HasUnsequenced")).Scan(&pending); err != nil || !pending {
		return err
	}
	tx, err := s.reads.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var last int64
	if err := tx.QueryRowContext(ctx, queries.Get("LockEventSeq")).Scan(&last); err != nil {
		return err
	}
	for {
		var pairs [][2]int64
		rows, err := tx.QueryContext(ctx, queries.Get("Unsequenced"), sequenceBatch)
		if err != nil {
			return err
		}
		for rows.Next() {
			var rid, n int64
			if err := rows.Scan(&rid, &n); err != nil {
				rows.Close()
				return err
			}
			last += n
			pairs = append(pairs, [2]int64{rid, last})
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for _, p := range pairs {
			if _, err := tx.ExecContext(ctx, queries.Get("Sequence"), p[1], p[0]); err != nil {
				return err
			}
		}
		if len(pairs) < sequenceBatch {
			break
		}
	}
	if _, err := tx.ExecContext(ctx, queries.Get("SetEventSeq"), last); err != nil {
		return err
	}
	return tx.Commit()
}
