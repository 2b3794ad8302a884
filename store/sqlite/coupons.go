package sqlite

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
)

// Claim issues one coupon of p.TemplateID to p.UserID.
func (s *Store) Claim(ctx context.Context, p store.ClaimParams) (coupon.Coupon, error) {
	return inTx(ctx, s, func(t *tx) (coupon.Coupon, error) {
		tp, err := scanTemplate(t.queryRow("GetTemplate", p.TemplateID))
		if err != nil {
			return coupon.Coupon{}, err
		}
		if err := tp.Claimable(p.Now); err != nil {
			return coupon.Coupon{}, err
		}
		if tp.PerUserLimit > 0 {
			var held int64
			if err := t.queryRow("CountUserTemplate", p.UserID, p.TemplateID).Scan(&held); err != nil {
				return coupon.Coupon{}, err
			}
			if held >= tp.PerUserLimit {
				return coupon.Coupon{}, coupon.ErrLimitReached
			}
		}
		if ok, err := t.execOne("TakeIssue", p.TemplateID); err != nil || !ok {
			return coupon.Coupon{}, orErr(err, coupon.ErrSoldOut)
		}
		c := coupon.Coupon{
			ID: store.NewID("cpn", p.Now), TemplateID: tp.ID, UserID: p.UserID, Status: coupon.Unused,
			ClaimedAt: p.Now, ExpiresAt: tp.ExpiresAt(p.Now), UpdatedAt: p.Now, Version: 1,
		}
		if _, err := t.exec("InsertCoupon", c.ID, c.TemplateID, c.UserID, ms(c.ClaimedAt), ms(c.ExpiresAt), ms(c.UpdatedAt)); err != nil {
			return c, err
		}
		if err := t.count(c.TemplateID, coupon.Unused.String(), 1); err != nil {
			return c, err
		}
		if err := t.timer(store.TimerExpire, c.ExpiresAt); err != nil {
			return c, err
		}
		u, err := t.touch(p.UserID, p.Now)
		if err != nil {
			return c, err
		}
		if err := t.planReminders(c, t.policy.LeadsFor(tp.Reminders), u, p.Now, true); err != nil {
			return c, err
		}
		return c, t.event(store.CouponEvent(c, store.EventCouponClaimed, 0, store.ReasonClaim, "", p.Now))
	})
}

// orErr returns err if set, else fallback.
func orErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}

// Coupon returns one coupon as stored.
func (s *Store) Coupon(ctx context.Context, id string) (coupon.Coupon, error) {
	c, err := scanCoupon(s.readRow(ctx, "GetCoupon", id))
	return c, interpret(err)
}

// UserCoupons lists a user's coupons as the lazy check reads them.
func (s *Store) UserCoupons(ctx context.Context, p store.UserCouponsParams) ([]coupon.Coupon, error) {
	rows, err := s.read(ctx, "UserCoupons", p.UserID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []coupon.Coupon{}
	for rows.Next() {
		c, err := scanCoupon(rows)
		if err != nil {
			return nil, err
		}
		c = c.View(p.Now)
		if p.Status == 0 || c.Status == p.Status {
			out = append(out, c)
		}
	}
	return out, rows.Err()
}

// Transition decides p.Action with the coupon table and stores the result
// with a compare-and-set on the coupon's state and version.
func (s *Store) Transition(ctx context.Context, p store.TransitionParams) (coupon.Coupon, error) {
	return inTx(ctx, s, func(t *tx) (coupon.Coupon, error) {
		c, err := scanCoupon(t.queryRow("GetCoupon", p.CouponID))
		if err != nil {
			return c, err
		}
		next, err := t.transition(c, p)
		if err == nil && remind.ByUser(p.Action) {
			_, err = t.touch(c.UserID, p.Now)
		}
		return next, err
	})
}

// transition moves c as p asks: decided by the coupon table, stored by a
// compare-and-set, with its counts, timers and event.
func (t *tx) transition(c coupon.Coupon, p store.TransitionParams) (coupon.Coupon, error) {
	to, err := coupon.Decide(c, p.Action, p.OrderID, p.Now)
	if err != nil {
		return c, err
	}
	next := store.Apply(c, to, p)
	ok, err := t.execOne("CompareAndSet", next.Status.String(), nullString(next.OrderID), nullMS(next.LockedUntil),
		ms(next.UpdatedAt), c.ID, c.Status.String(), c.Version)
	if err != nil || !ok {
		return c, orErr(err, coupon.ErrInvalidState)
	}
	if err := t.moveCounts(map[string]int64{c.TemplateID: 1}, c.Status, to); err != nil {
		return c, err
	}
	switch to {
	case coupon.Locked:
		err = t.timer(store.TimerRelease, next.LockedUntil)
	case coupon.Unused:
		err = t.timer(store.TimerExpire, next.ExpiresAt)
	}
	if err == nil {
		err = t.remindersOn(next, p.Now)
	}
	if err != nil {
		return c, err
	}
	reason := p.Reason
	if reason == "" {
		reason = p.Action.String()
	}
	orderID := p.OrderID
	if orderID == "" {
		orderID = c.OrderID
	}
	typ := store.CouponEventType(p.Action, to)
	return next, t.event(store.CouponEvent(next, typ, c.Status, reason, orderID, p.Now))
}

func scanCoupon(row scanner) (coupon.Coupon, error) {
	var (
		c                               coupon.Coupon
		status                          string
		claimedAt, expiresAt, updatedAt int64
		orderID                         sql.NullString
		lockedUntil                     sql.NullInt64
	)
	err := row.Scan(&c.ID, &c.TemplateID, &c.UserID, &status, &claimedAt, &expiresAt, &orderID, &lockedUntil, &updatedAt, &c.Version)
	if err != nil {
		return c, err
	}
	if c.Status, err = coupon.ParseState(status); err != nil {
		return c, err
	}
	c.ClaimedAt, c.ExpiresAt, c.UpdatedAt = at(claimedAt), at(expiresAt), at(updatedAt)
	c.OrderID, c.LockedUntil = orderID.String, atNull(lockedUntil)
	return c, nil
}
