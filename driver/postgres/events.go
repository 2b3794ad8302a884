package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
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
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r storetype.Record
		if err := rows.Scan(&r.Last, &r.N, &r.Time, &r.Body); err != nil {
			return err
		}
		if !p.Each(r) {
			break
		}
	}
	return rows.Err()
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
// records that have none (see migration 0008), one sequencer at a time:
// outside a transaction in one of its own, in one under a savepoint.
func (e *executor) sequence(ctx context.Context) error {
	var pending bool
	if err := e.queryRow(ctx, "HasUnsequenced").Scan(&pending); err != nil || !pending {
		return err
	}
	return pgx.BeginFunc(ctx, e.q, func(tx pgx.Tx) error {
		var last int64
		if err := tx.QueryRow(ctx, queries.Get("LockEventSeq")).Scan(&last); err != nil {
			return err
		}
		for {
			rows, err := tx.Query(ctx, queries.Get("Unsequenced"), sequenceBatch)
			if err != nil {
				return err
			}
			var rid, n int64
			var rids, seqs []int64
			if _, err := pgx.ForEachRow(rows, []any{&rid, &n}, func() error {
				last += n
				rids, seqs = append(rids, rid), append(seqs, last)
				return nil
			}); err != nil {
				return err
			}
			if len(rids) > 0 {
				if _, err := tx.Exec(ctx, queries.Get("Sequence"), rids, seqs); err != nil {
					return err
				}
			}
			if len(rids) < sequenceBatch {
				_, err := tx.Exec(ctx, queries.Get("SetEventSeq"), last)
				return err
			}
		}
	})
}
