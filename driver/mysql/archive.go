package mysql

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// ArchiveCoupons moves a batch of terminal coupons to the archive and
// deletes their record of reminders.
func (e *executor) ArchiveCoupons(ctx context.Context, p driver.MoveParams) (int64, error) {
	return e.move(ctx, e.sq().TerminalCoupons, "CopyCoupons", p, "DeleteCoupons", "DeleteReminded")
}

// ArchiveOrders moves a batch of paid or closed orders to the archive.
func (e *executor) ArchiveOrders(ctx context.Context, p driver.MoveParams) (int64, error) {
	pick := func(ctx context.Context, p dbsqlc.TerminalCouponsParams) ([]string, error) {
		return e.sq().FinishedOrders(ctx, dbsqlc.FinishedOrdersParams(p))
	}
	return e.move(ctx, pick, "CopyOrders", p, "DeleteOrders")
}

// move holds the IDs of a batch with pick, copies them to the archive
// with the query copy, then runs each of deletes over them.
func (e *executor) move(ctx context.Context, pick func(context.Context, dbsqlc.TerminalCouponsParams) ([]string, error),
	copy string, p driver.MoveParams, deletes ...string) (int64, error) {
	picked, err := pick(ctx, dbsqlc.TerminalCouponsParams{Before: p.Before, Limit: int32(p.Limit)})
	if err != nil || len(picked) == 0 {
		return 0, err
	}
	ids := make([]any, len(picked))
	for i, id := range picked {
		ids[i] = id
	}
	if _, err := e.execList(ctx, copy, len(ids), append([]any{p.Now}, ids...)...); err != nil {
		return 0, err
	}
	for _, name := range deletes {
		if _, err := e.execList(ctx, name, len(ids), ids...); err != nil {
			return 0, err
		}
	}
	return int64(len(ids)), nil
}

// PruneReminders deletes a batch of sent or dropped reminders.
func (e *executor) PruneReminders(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return e.sq().PruneReminders(ctx, dbsqlc.PruneRemindersParams{DoneAt: sql.NullTime{Time: p.Before, Valid: true}, Limit: int32(p.Limit)})
}

// Archivable counts what an archive at p.Move would move, and the
// reminders done by p.Reminders.
func (e *executor) Archivable(ctx context.Context, p driver.ArchivableParams) (storetype.Archived, error) {
	var a storetype.Archived
	err := e.queryRow(ctx, "Archivable", p.Move.Before, p.Move.Before, p.Reminders).Scan(&a.Coupons, &a.Orders, &a.Reminders)
	return a, err
}
