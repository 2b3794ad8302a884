package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// ArchiveCoupons moves a batch of terminal coupons to the archive and
// deletes their record of reminders, in one statement.
func (t *tx) ArchiveCoupons(p driver.MoveParams) (int64, error) {
	tag, err := t.exec("ArchiveCoupons", p.Before, p.Limit, p.Now)
	return tag.RowsAffected(), err
}

// ArchiveOrders moves a batch of paid or closed orders to the archive, in
// one statement.
func (t *tx) ArchiveOrders(p driver.MoveParams) (int64, error) {
	tag, err := t.exec("ArchiveOrders", p.Before, p.Limit, p.Now)
	return tag.RowsAffected(), err
}

// PruneReminders deletes a batch of sent or dropped reminders.
func (t *tx) PruneReminders(p storetype.PruneRequestsParams) (int64, error) {
	tag, err := t.exec("PruneReminders", p.Before, p.Limit)
	return tag.RowsAffected(), err
}

// Archivable counts what an archive at p would move, and the reminders
// done by reminders.
func (s *Driver) Archivable(ctx context.Context, p driver.MoveParams, reminders time.Time) (storetype.Archived, error) {
	var a storetype.Archived
	err := s.readRow(ctx, "Archivable", p.Before, reminders).Scan(&a.Coupons, &a.Orders, &a.Reminders)
	return a, err
}

// ArchivedCoupon reads one archived coupon.
func (s *Driver) ArchivedCoupon(ctx context.Context, id string) (coupon.Coupon, error) {
	return sqlfile.ScanOne(s.readRow(ctx, "GetArchivedCoupon", id), scanCoupon, interpret)
}

// ArchivedOrder reads one archived order.
func (s *Driver) ArchivedOrder(ctx context.Context, id string) (order.Order, error) {
	return sqlfile.ScanOne(s.readRow(ctx, "GetArchivedOrder", id), scanOrder, interpret)
}
