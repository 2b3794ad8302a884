package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/lapsehq/lapse/coupon"
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
// Users may be issued to in another order than the list's where the
// outcome cannot differ: Issue goes in user order when the template has no
// total, which keeps the writes to the users' index local. Refusals are
// reported in list order all the same. Each coupon's ID is IssueID of the
// issuance's nonce and the user's rank in the order of issue, which
// depends only on the list and the template.
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
// so that their inserts into the ID indexes (the coupons' and their
// events') append rather than land all over them, which a profile of a
// million-user issuance put at over half its time.
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

// issueOrder returns the positions in users in the order to issue to them.
// In list order the inserts into the users' index (user_id, template_id)
// land all over it and every batch rewrites thousands of its pages; in
// user order (stable, so a user's own entries keep their order) they land
// on neighbouring pages. The outcome is the same unless a total runs out
// during the list, so with a total it is list order.
func issueOrder(users []string, total int64) []int {
	order := make([]int, len(users))
	for i := range order {
		order[i] = i
	}
	if total == 0 {
		slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(users[a], users[b]) })
	}
	return order
}

// IssueStep is what one or more transactions of a bulk issuance did; only
// Issue reads it.
type IssueStep struct {
	issued Issued
	// refusedAt holds the list position of each refusal.
	refusedAt []int
	// users counts the users of the batch it got through.
	users int
}

// plus is s followed by more, sharing nothing with s.
func (s IssueStep) plus(more IssueStep) IssueStep {
	return IssueStep{
		issued:    Issued{Issued: s.issued.Issued + more.issued.Issued, Refused: append(slices.Clip(s.issued.Refused), more.issued.Refused...)},
		refusedAt: append(slices.Clip(s.refusedAt), more.refusedAt...),
		users:     s.users + more.users,
	}
}

// outcome is s as Issue answers it, the refusals in list order.
func (s IssueStep) outcome() Issued {
	idx := make([]int, len(s.refusedAt))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return s.refusedAt[a] - s.refusedAt[b] })
	out := Issued{Issued: s.issued.Issued}
	for _, i := range idx {
		out.Refused = append(out.Refused, s.issued.Refused[i])
	}
	return out
}

// IssueChunk is how many users a batch of Issue decides on and writes at a
// time: between two chunks it asks whether to make way for another write.
const IssueChunk = 500

// Issue runs the bulk issuance p asks for, under the idempotency key on
// ctx if any (see IssueParams), in a backend's transactions: batch runs fn
// in one write transaction (again, if the backend retries it), without the
// replay a single mutation gets. busy, if set, is asked after each chunk
// of users whether another write waits for the backend; if one does, the
// batch commits what it has and the next one goes on from there.
func Issue(ctx context.Context, p IssueParams, busy func() bool,
	batch func(fn func(Tx) (IssueStep, error)) (IssueStep, error)) (Issued, error) {
	size := p.BatchSize
	if size <= 0 {
		size = DefaultIssueBatch
	}
	idem, idempotent := IdempotencyFrom(ctx)
	var nonce uint64
	if idempotent {
		nonce = IssueNonce(&idem)
	} else {
		nonce = IssueNonce(nil)
	}
	var (
		out   IssueStep
		order []int // decided in the first batch, from the template
	)
	for next := 0; ; {
		step, err := batch(func(t Tx) (IssueStep, error) {
			if order == nil {
				tp, err := t.ClaimTemplate(p.TemplateID)
				if err != nil {
					return IssueStep{}, err
				}
				order = issueOrder(p.UserIDs, tp.Total)
			}
			b := issueBatch{templateID: p.TemplateID, list: p.UserIDs, at: order[next:min(next+size, len(order))],
				from: next, now: p.Now, nonce: nonce}
			if idempotent {
				r, inFlight, err := recorded(t, idem)
				if err != nil {
					return IssueStep{}, err
				}
				if !inFlight {
					r = Request{Fingerprint: idem.Fingerprint, Status: InFlight, Body: []byte{}, Created: p.Now}
					if err := t.PutRequest(idem.storedKey(), r); err != nil {
						return IssueStep{}, err
					}
				}
				// A retry goes on at the first attempt's Now; any attempt's
				// batch after the first may find its coupons committed.
				b.idem, b.now, b.resumed = &idem, r.Created, inFlight
			}
			step, err := issueIn(t, b, busy)
			if err != nil || !idempotent || next+step.users < len(order) {
				return step, err
			}
			return step, t.FinishRequest(idem.storedKey(), idem.Response(out.plus(step).outcome()))
		})
		if err != nil {
			return Issued{}, err
		}
		out = out.plus(step)
		if next += step.users; next >= len(order) {
			return out.outcome(), nil
		}
	}
}

// issueBatch is one transaction's share of an issuance: the users of list
// at the positions at, whose ranks in the order of issue start at from.
type issueBatch struct {
	templateID string
	list       []string
	at         []int
	from       int
	now        time.Time
	nonce      uint64
	// idem, if set, is the key the issuance is resumable under; resumed
	// says an earlier transaction under it may have committed some of the
	// batch's coupons.
	idem    *Idempotency
	resumed bool
}

// issueIn issues, in t, one coupon of b's template to each of b's users
// that the per-user limit and the total allow, as ClaimIn would one after
// the other, a chunk at a time; after a chunk it stops if busy says another
// write waits. Each chunk's coupons are written by one InsertClaimed.
func issueIn(t Tx, b issueBatch, busy func() bool) (IssueStep, error) {
	var out IssueStep
	tp, err := t.ClaimTemplate(b.templateID)
	if err != nil {
		return out, err
	}
	if err := tp.Claimable(b.now); err != nil {
		return out, err
	}
	var left int64 // what the total leaves, if there is one
	if tp.Total > 0 {
		issued, err := t.IssuedCount(tp.ID)
		if err != nil {
			return out, err
		}
		left = tp.Total - issued
	}
	held := map[string]int64{} // coupons of the template a user holds, this batch's included
	var added int64
	for out.users < len(b.at) && (out.users == 0 || busy == nil || !busy()) {
		at := b.at[out.users:min(out.users+IssueChunk, len(b.at))]
		chunk, ids := make([]string, len(at)), make([]string, len(at))
		for i, pos := range at {
			chunk[i], ids[i] = b.list[pos], IssueID(b.now, b.nonce, b.from+out.users+i)
		}
		existing := map[string]bool{}
		if b.resumed {
			if existing, err = t.ExistingCoupons(ids); err != nil {
				return out, err
			}
		}
		if tp.PerUserLimit > 0 {
			if err := heldCounts(t, tp.ID, chunk, held); err != nil {
				return out, err
			}
		}
		cs := make([]coupon.Coupon, 0, len(chunk))
		for i, u := range chunk {
			switch {
			case existing[ids[i]]: // committed by an earlier attempt, and counted in held and issued
				out.issued.Issued++
			case tp.PerUserLimit > 0 && held[u] >= tp.PerUserLimit:
				out.issued.Refused = append(out.issued.Refused, Refusal{UserID: u, Reason: coupon.ErrLimitReached})
				out.refusedAt = append(out.refusedAt, at[i])
			case tp.Total > 0 && left == 0:
				out.issued.Refused = append(out.issued.Refused, Refusal{UserID: u, Reason: coupon.ErrSoldOut})
				out.refusedAt = append(out.refusedAt, at[i])
			default:
				left--
				if tp.PerUserLimit > 0 {
					held[u]++
				}
				cs = append(cs, claimed(tp, ids[i], u, b.now))
			}
		}
		out.users += len(chunk)
		if len(cs) > 0 {
			if err := t.InsertClaimed(cs); err != nil {
				return out, err
			}
			if err := planIssued(t, cs, tp, b.now); err != nil {
				return out, err
			}
		}
		out.issued.Issued += int64(len(cs))
		added += int64(len(cs))
	}
	if added == 0 {
		return out, nil
	}
	if ok, err := t.TakeIssues(tp.ID, added); err != nil || !ok {
		return out, orErr(err, coupon.ErrSoldOut)
	}
	if err := t.Count(tp.ID, coupon.Unused, added); err != nil {
		return out, err
	}
	return out, t.Timer(TimerExpire, tp.ExpiresAt(b.now))
}

// planIssued plans the reminders of bulk-issued coupons, as a claim does,
// on a store that plans them. An operator's issuance is not the user's
// activity: last_active_at is left alone.
func planIssued(t Tx, cs []coupon.Coupon, tp coupon.Template, now time.Time) error {
	rt, ok := t.(ReminderTx)
	if !ok {
		return nil
	}
	for _, c := range cs {
		if err := rt.Plan(c, tp, true, now); err != nil {
			return err
		}
	}
	return nil
}

// heldCounts adds to held how many coupons of templateID each of users not
// in it yet holds.
func heldCounts(t Tx, templateID string, users []string, held map[string]int64) error {
	var unseen []string
	for _, u := range users {
		if _, ok := held[u]; !ok {
			unseen = append(unseen, u)
		}
	}
	if len(unseen) == 0 {
		return nil
	}
	got, err := t.HeldCounts(templateID, unseen)
	for _, u := range unseen {
		held[u] = got[u]
	}
	return err
}
