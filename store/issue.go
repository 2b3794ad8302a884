package store

import (
	"strconv"
	"time"
)

// IssueParams are the inputs of Issue.
//
// Issue issues one coupon of TemplateID to each of UserIDs, in list order,
// at Now, under the template's rules, in transactions of at most BatchSize
// users. Each coupon is written as Claim writes it: the row, the count, the
// group timer and a coupon.claimed event. A user the per-user limit or the
// total refuses is listed in Issued.Refused (a user listed twice is issued
// twice, limit permitting). An unknown template (ErrNotFound) or a claim
// window closed at Now (coupon.ErrNotClaimable) fails the call before it
// writes anything.
//
// Without an idempotency key on ctx, a failure leaves the batches already
// committed in place. With one, the issuance can be resumed: the first
// batch records the request as in flight under the key, with its Now, and
// each coupon's ID is IssueID of the key, the fingerprint and the user's
// position in the list. A retry of the same request (same key and
// fingerprint) after a crash walks the list again at the first attempt's
// Now, counts the coupons it finds by ID as issued, and issues the rest;
// the last batch stores the response, which later retries replay. Any
// other request under the key meanwhile is an idempotency conflict.
type IssueParams struct {
	TemplateID string
	UserIDs    []string
	Now        time.Time
	// BatchSize is how many users one transaction issues to; 0 means
	// DefaultIssueBatch.
	BatchSize int
}

// DefaultIssueBatch is the batch size of Issue when IssueParams names none.
const DefaultIssueBatch = 5000

// Issued is the outcome of Issue.
type Issued struct {
	// Issued counts the coupons issued.
	Issued int64
	// Refused lists the users refused, in list order.
	Refused []Refusal
}

// Refusal is one user a bulk issuance refused, and why: coupon.ErrLimitReached
// or coupon.ErrSoldOut.
type Refusal struct {
	UserID string
	Reason error
}

// IssueID is the ID of the coupon an issuance under idem, run at now,
// issues to the user at position i of its list.
func IssueID(idem Idempotency, now time.Time, i int) string {
	return DerivedID("cpn", now, idem.Key, idem.Fingerprint, strconv.Itoa(i))
}
