package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/lapsehq/lapse/storetype"
)

// sequenceBatch bounds the records one pass of sequence numbers.
const sequenceBatch = 1000

// Records numbers the committed records that have no position yet, then
// reads the records holding the events after the cursor after, one at a
// time, until each has enough.
func (s *Driver) Records(ctx context.Context, after int64, limit int, each func(storetype.Record) bool) error {
	if err := s.sequence(ctx); err != nil {
		return err
	}
	rows, err := s.read(ctx, "Records", after, limit, storetype.MaxRecord)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r storetype.Record
		if err := rows.Scan(&r.Last, &r.N, &r.Time, &r.Body); err != nil {
			return err
		}
		if !each(r) {
			break
		}
	}
	return rows.Err()
}

// FrontRecords reads the first limit records of the feed, without their
// bodies.
func (t *tx) FrontRecords(limit int) ([]storetype.Record, error) {
	rows, err := t.query("FrontRecords", limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (r storetype.Record, err error) {
		return r, row.Scan(&r.Last, &r.N, &r.Time)
	})
}

// sequence gives feed positions, in insertion order, to the committed
// records that have none (see migration 0008), one sequencer at a time.
func (s *Driver) sequence(ctx context.Context) error {
	var pending bool
	if err := s.readRow(ctx, "HasUnsequenced").Scan(&pending); err != nil || !pending {
		return err
	}
	return pgx.BeginFunc(ctx, s.reads, func(tx pgx.Tx) error {
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

// FeedEnd reads the last position the feed handed out.
func (s *Driver) FeedEnd(ctx context.Context) (int64, error) {
	var end int64
	err := s.readRow(ctx, "FeedEnd").Scan(&end)
	return end, err
}
