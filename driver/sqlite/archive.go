package sqlite

import (
	"context"
	"encoding/json"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// ArchiveCoupons moves a batch of terminal coupons to the archive and
// deletes their record of reminders.
func (e *executor) ArchiveCoupons(ctx context.Context, p driver.MoveParams) (int64, error) {
	return e.move(ctx, "ArchiveCoupons", p, "DeleteCoupons", "DeleteReminded")
}

// ArchiveOrders moves a batch of paid or closed orders to the archive.
func (e *executor) ArchiveOrders(ctx context.Context, p driver.MoveParams) (int64, error) {
	return e.move(ctx, "ArchiveOrders", p, "DeleteOrders")
}

// move copies a batch to the archive with the named query, which returns
// the IDs copied, then runs each of deletes over them.
func (e *executor) move(ctx context.Context, archive string, p driver.MoveParams, deletes ...string) (int64, error) {
	rows, err := e.query(ctx, archive, ms(p.Before), p.Limit, ms(p.Now))
	ids, err := sqlfile.Collect(rows, err, sqlfile.ScanString)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return 0, err
	}
	for _, name := range deletes {
		if _, err := e.exec(ctx, name, string(list)); err != nil {
			return 0, err
		}
	}
	return int64(len(ids)), nil
}

// PruneReminders deletes a batch of sent or dropped reminders.
func (e *executor) PruneReminders(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return e.execCount(ctx, "PruneReminders", ms(p.Before), p.Limit)
}

// Archivable counts what an archive at p.Move would move, and the
// reminders done by p.Reminders.
func (e *executor) Archivable(ctx context.Context, p driver.ArchivableParams) (storetype.Archived, error) {
	var a storetype.Archived
	err := e.queryRow(ctx, "Archivable", ms(p.Move.Before), ms(p.Reminders)).Scan(&a.Coupons, &a.Orders, &a.Reminders)
	return a, err
}
