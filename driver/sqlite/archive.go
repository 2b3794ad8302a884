package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// ArchiveCoupons moves a batch of terminal coupons to the archive and
// deletes their record of reminders.
func (e *executor) ArchiveCoupons(ctx context.Context, p driver.MoveParams) (int64, error) {
	return e.move(ctx, e.q().ArchiveCoupons, p, e.q().DeleteCoupons, e.q().DeleteReminded)
}

// ArchiveOrders moves a batch of paid or closed orders to the archive.
func (e *executor) ArchiveOrders(ctx context.Context, p driver.MoveParams) (int64, error) {
	archive := func(ctx context.Context, p dbsqlc.ArchiveCouponsParams) ([]string, error) {
		return e.q().ArchiveOrders(ctx, dbsqlc.ArchiveOrdersParams(p))
	}
	return e.move(ctx, archive, p, e.q().DeleteOrders)
}

// move copies a batch to the archive with archive, which returns the IDs
// copied, then runs each of deletes over them (their JSON array).
func (e *executor) move(ctx context.Context, archive func(context.Context, dbsqlc.ArchiveCouponsParams) ([]string, error),
	p driver.MoveParams, deletes ...func(context.Context, any) error) (int64, error) {
	ids, err := archive(ctx, dbsqlc.ArchiveCouponsParams{ArchivedAt: ms(p.Now), Before: ms(p.Before), Lim: int64(p.Limit)})
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	list := jsonList(ids)
	for _, del := range deletes {
		if err := del(ctx, list); err != nil {
			return 0, err
		}
	}
	return int64(len(ids)), nil
}

// PruneReminders deletes a batch of sent or dropped reminders.
func (e *executor) PruneReminders(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return e.q().PruneReminders(ctx, dbsqlc.PruneRemindersParams{Before: msNotNull(p.Before), Lim: int64(p.Limit)})
}

// Archivable counts what an archive at p.Move would move, and the
// reminders done by p.Reminders.
func (e *executor) Archivable(ctx context.Context, p driver.ArchivableParams) (storetype.Archived, error) {
	r, err := e.q().Archivable(ctx, dbsqlc.ArchivableParams{Before: ms(p.Move.Before), Reminders: msNotNull(p.Reminders)})
	return storetype.Archived{Coupons: r.Coupons, Orders: r.Orders, Reminders: r.Reminders}, err
}
