package postgres

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// ArchiveCoupons moves a batch of terminal coupons to the archive and
// deletes their record of reminders, in one statement.
func (e *executor) ArchiveCoupons(ctx context.Context, p driver.MoveParams) (int64, error) {
	return e.execCount(ctx, "ArchiveCoupons", p.Before, p.Limit, p.Now)
}

// ArchiveOrders moves a batch of paid or closed orders to the archive, in
// one statement.
func (e *executor) ArchiveOrders(ctx context.Context, p driver.MoveParams) (int64, error) {
	return e.execCount(ctx, "ArchiveOrders", p.Before, p.Limit, p.Now)
}

// PruneReminders deletes a batch of sent or dropped reminders.
func (e *executor) PruneReminders(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return e.execCount(ctx, "PruneReminders", p.Before, p.Limit)
}

// Archivable counts what an archive at p.Move would move, and the
// reminders done by p.Reminders.
func (e *executor) Archivable(ctx context.Context, p driver.ArchivableParams) (storetype.Archived, error) {
	var a storetype.Archived
	err := e.queryRow(ctx, "Archivable", p.Move.Before, p.Reminders).Scan(&a.Coupons, &a.Orders, &a.Reminders)
	return a, err
}
