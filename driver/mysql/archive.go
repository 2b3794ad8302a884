package mysql

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
// deletes their record of reminders.
func (t *tx) ArchiveCoupons(p driver.MoveParams) (int64, error) {
	return t.move("TerminalCoupons", "CopyCoupons", p, "DeleteCoupons", "DeleteReminded")
}

// ArchiveOrders moves a batch of paid or closed orders to the archive.
func (t *tx) ArchiveOrders(p driver.MoveParams) (int64, error) {
	return t.move("FinishedOrders", "CopyOrders", p, "DeleteOrders")
}

// move holds the IDs of a batch with the query pick, copies them to the
// archive with copy, then runs each of deletes over them.
func (t *tx) move(pick, copy string, p driver.MoveParams, deletes ...string) (int64, error) {
	rows, err := t.query(pick, p.Before, p.Limit)
	ids, err := sqlfile.Collect(rows, err, func(row scanner) (id any, err error) {
		var s string
		return s, row.Scan(&s)
	})
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	if _, err := t.execList(copy, len(ids), append([]any{p.Now}, ids...)...); err != nil {
		return 0, err
	}
	for _, name := range deletes {
		if _, err := t.execList(name, len(ids), ids...); err != nil {
			return 0, err
		}
	}
	return int64(len(ids)), nil
}

// PruneReminders deletes a batch of sent or dropped reminders.
func (t *tx) PruneReminders(p storetype.PruneRequestsParams) (int64, error) {
	res, err := t.exec("PruneReminders", p.Before, p.Limit)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Archivable counts what an archive at p would move, and the reminders
// done by reminders.
func (s *Driver) Archivable(ctx context.Context, p driver.MoveParams, reminders time.Time) (storetype.Archived, error) {
	var a storetype.Archived
	err := s.queryRow(ctx, "Archivable", p.Before, p.Before, reminders).Scan(&a.Coupons, &a.Orders, &a.Reminders)
	return a, err
}

// ArchivedCoupon reads one archived coupon.
func (s *Driver) ArchivedCoupon(ctx context.Context, id string) (coupon.Coupon, error) {
	return sqlfile.ScanOne(s.queryRow(ctx, "GetArchivedCoupon", id), scanCoupon, interpret)
}

// ArchivedOrder reads one archived order.
func (s *Driver) ArchivedOrder(ctx context.Context, id string) (order.Order, error) {
	return sqlfile.ScanOne(s.queryRow(ctx, "GetArchivedOrder", id), scanOrder, interpret)
}
