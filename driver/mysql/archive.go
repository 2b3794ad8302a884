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
	return e.move(ctx, e.sq().TerminalCoupons, e.sq().CopyCoupons, p, e.sq().DeleteCoupons, e.sq().DeleteReminded)
}

// ArchiveOrders moves a batch of paid or closed orders to the archive.
func (e *executor) ArchiveOrders(ctx context.Context, p driver.MoveParams) (int64, error) {
	pick := func(ctx context.Context, p dbsqlc.TerminalCouponsParams) ([]string, error) {
		return e.sq().FinishedOrders(ctx, dbsqlc.FinishedOrdersParams(p))
	}
	copy := func(ctx context.Context, p dbsqlc.CopyCouponsParams) error {
		return e.sq().CopyOrders(ctx, dbsqlc.CopyOrdersParams(p))
	}
	return e.move(ctx, pick, copy, p, e.sq().DeleteOrders)
}

// move holds the IDs of a batch with pick, copies them to the archive
// with copy, then runs each of deletes over them.
func (e *executor) move(ctx context.Context, pick func(context.Context, dbsqlc.TerminalCouponsParams) ([]string, error),
	copy func(context.Context, dbsqlc.CopyCouponsParams) error, p driver.MoveParams,
	deletes ...func(context.Context, []string) error) (int64, error) {
	ids, err := pick(ctx, dbsqlc.TerminalCouponsParams{Before: p.Before, Limit: int32(p.Limit)})
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	if err := copy(ctx, dbsqlc.CopyCouponsParams{ArchivedAt: p.Now, Ids: ids}); err != nil {
		return 0, err
	}
	for _, del := range deletes {
		if err := del(ctx, ids); err != nil {
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
	r, err := e.sq().Archivable(ctx, dbsqlc.ArchivableParams{Before: p.Move.Before, Reminders: sql.NullTime{Time: p.Reminders, Valid: true}})
	return storetype.Archived{Coupons: r.Coupons, Orders: r.Orders, Reminders: r.Reminders}, err
}
