package store

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
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
// A backend may issue in another order than the list's (in user order,
// say, which keeps index writes local) where the outcome cannot differ;
// refusals are reported in list order all the same. Each coupon's ID is
// IssueID of the issuance's nonce and the user's rank in the order of
// issue, which must depend only on the list and the template.
//
// Without an idempotency key on ctx, a failure leaves the batches already
// committed in place. With one, the issuance can be resumed: the first
// batch records the request as in flight under the key, with its Now, and
// the nonce is IssueNonce of the key and fingerprint. A retry of the same
// request (same key and fingerprint) after a crash walks the list again at
// the first attempt's Now, makes the same IDs, counts the coupons it finds
// by ID as issued, and issues the rest; the last batch stores the
// response, which later retries replay. Any other request under the key
// meanwhile is an idempotency conflict.
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

// IssueID is the ID of the coupon an issuance run at now with nonce issues
// as its rank-th: the IDs of one issuance increase in the order of issue,
// so that their inserts into the ID indexes append rather than land all
// over them.
func IssueID(now time.Time, nonce uint64, rank int) string {
	return SeqID("cpn", now, nonce, uint64(rank))
}

// IssueNonce returns the nonce that tells an issuance's IDs from those of
// another made in the same millisecond: random, or under an idempotency
// key derived from key and fingerprint, so that a retry makes the same IDs.
func IssueNonce(idem *Idempotency) uint64 {
	if idem == nil {
		return rand.Uint64()
	}
	h := sha256.Sum256([]byte(idem.Key + "\x00" + idem.Fingerprint))
	return binary.BigEndian.Uint64(h[:8])
}
