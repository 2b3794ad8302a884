package client

// The states of a coupon (Coupon.Status, WalletQuery.Status).
const (
	CouponUnused  = "unused"
	CouponLocked  = "locked"
	CouponUsed    = "used"
	CouponExpired = "expired"
	CouponVoided  = "voided"
)

// The states of an order (Order.Status).
const (
	OrderUnpaid = "unpaid"
	OrderPaid   = "paid"
	OrderClosed = "closed"
)

// Why an order closed (Order.CloseReason).
const (
	CloseTimeout   = "timeout"
	CloseCancelled = "cancelled"
)

// The states of a bulk operation (Operation.State).
const (
	OperationRunning   = "running"
	OperationDone      = "done"
	OperationCancelled = "cancelled"
)

// The kinds of a bulk operation (NewOperation.Kind, Operation.Kind).
const (
	OperationVoid   = "void"
	OperationExtend = "extend"
)
