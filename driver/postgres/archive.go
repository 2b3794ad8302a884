package postgres

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// ArchiveCoupons moves a batch of terminal coupons to the archive and
// deletes their record of reminders, in one statement.
func (e *executor) ArchiveCoupons(ctx context.Context, p driver.MoveParams) (int64, error) {
	return e.sqlc().ArchiveCoupons(ctx, dbsqlc.ArchiveCouponsParams{UpdatedAt: p.Before, Limit: int32(p.Limit), ArchivedAt: p.Now})
}

// ArchiveOrders moves a batch of paid or closed orders to the archive, in
// one statement.
func (e *executor) ArchiveOrders(ctx context.Context, p driver.MoveParams) (int64, error) {
	return e.sqlc().ArchiveOrders(ctx, dbsqlc.ArchiveOrdersParams{UpdatedAt: p.Before, Limit: int32(p.Limit), ArchivedAt: p.Now})
}

// PruneReminders deletes a batch of sent or dropped reminders.
func (e *executor) PruneReminders(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return e.sqlc().PruneReminders(ctx, dbsqlc.PruneRemindersParams{DoneAt: &p.Before, Limit: int32(p.Limit)})
}

// Archivable counts what an archive at p.Move would move, and the
// reminders done by p.Reminders.
func (e *executor) Archivable(ctx context.Context, p driver.ArchivableParams) (storetype.Archived, error) {
	r, err := e.sqlc().Archivable(ctx, dbsqlc.ArchivableParams{UpdatedAt: p.Move.Before, DoneAt: &p.Reminders})
	return storetype.Archived{Coupons: r.Coupons, Orders: r.Orders, Reminders: r.Reminders}, err
}
