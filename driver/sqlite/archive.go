package sqlite

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// ArchiveCoupons moves a batch of terminal coupons to the archive and
// deletes their record of reminders.
func (t *tx) ArchiveCoupons(p driver.MoveParams) (int64, error) {
	return t.move("ArchiveCoupons", p, "DeleteCoupons", "DeleteReminded")
}

// ArchiveOrders moves a batch of paid or closed orders to the archive.
func (t *tx) ArchiveOrders(p driver.MoveParams) (int64, error) {
	return t.move("ArchiveOrders", p, "DeleteOrders")
}

// move copies a batch to the archive with the named query, which returns
// the IDs copied, then runs each of deletes over them.
func (t *tx) move(archive string, p driver.MoveParams, deletes ...string) (int64, error) {
	rows, err := t.query(archive, ms(p.Before), p.Limit, ms(p.Now))
	ids, err := sqlfile.Collect(rows, err, sqlfile.ScanString)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return 0, err
	}
	for _, name := range deletes {
		if _, err := t.exec(name, string(list)); err != nil {
			return 0, err
		}
	}
	return int64(len(ids)), nil
}

// PruneReminders deletes a batch of sent or dropped reminders.
func (t *tx) PruneReminders(p storetype.PruneRequestsParams) (int64, error) {
	return t.execCount("PruneReminders", ms(p.Before), p.Limit)
}

// Archivable counts what an archive at p would move, and the reminders
// done by reminders.
func (s *Driver) Archivable(ctx context.Context, p driver.MoveParams, reminders time.Time) (storetype.Archived, error) {
	var a storetype.Archived
	err := s.readRow(ctx, "Archivable", ms(p.Before), ms(reminders)).Scan(&a.Coupons, &a.Orders, &a.Reminders)
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
