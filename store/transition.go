package store

import (
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/storetype"
)

// apply returns c as it is after moving to state `to` on p, as transition
// decides it with coupon.Decide and stores it with Executor.SetCoupon.
func apply(c coupon.Coupon, to coupon.State, p TransitionParams) coupon.Coupon {
	c.Status = to
	c.UpdatedAt = p.Now
	c.Version++
	switch to {
	case coupon.Locked:
		c.OrderID = p.OrderID
		c.LockedUntil = p.Now.Add(p.LockTTL)
	case coupon.Used:
		c.OrderID = p.OrderID
		c.LockedUntil = time.Time{}
	default:
		c.OrderID = ""
		c.LockedUntil = time.Time{}
	}
	return c
}

// CouponEventType names the event of a transition: the state moved to, or
// for a coupon given back, how it came back.
func CouponEventType(act coupon.Action, to coupon.State) string {
	switch to {
	case coupon.Locked:
		return EventCouponLocked
	case coupon.Used:
		return EventCouponRedeemed
	case coupon.Expired:
		return EventCouponExpired
	case coupon.Voided:
		return EventCouponVoided
	}
	if act == coupon.Refund {
		return EventCouponRefunded
	}
	return EventCouponUnlocked
}

// CouponEvent builds the event of one coupon transition.
func CouponEvent(c coupon.Coupon, typ string, from coupon.State, reason, orderID string, at time.Time) storetype.Event {
	d := CouponEventData{Reason: reason, UserID: c.UserID, TemplateID: c.TemplateID, OrderID: orderID, ExpiresAt: storetype.Timestamp(c.ExpiresAt)}
	if from != 0 {
		d.From = from.String()
	}
	return storetype.Event{ID: NewID("evt", at), Type: typ, Subject: c.ID, Time: at, Data: mustJSON(d)}
}

// withOperation returns e, a coupon event, with its data naming the bulk
// operation op.
func withOperation(e storetype.Event, op string) storetype.Event {
	var d CouponEventData
	if err := json.Unmarshal(e.Data, &d); err != nil {
		panic(err) // CouponEvent wrote it
	}
	d.Operation = op
	e.Data = mustJSON(d)
	return e
}
