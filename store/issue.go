package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/storetype"
)

// IssueParams are the inputs of Issue.
//
// Issue issues one coupon of TemplateID to each user Users yields, in list
// order, at Now, under the template's rules, in transactions of at most
// BatchSize users. Each coupon is written as Claim writes it: the row, the
// count, the group timer and a coupon.claimed event. A user the per-user
// limit or the total refuses is counted in Issued.RefusedCount, and listed
// in Issued.Refused if among the first MaxRefused refused (a user listed
// twice is issued twice, limit permitting). An unknown template
// (ErrNotFound) or a claim window closed at Now (coupon.ErrNotClaimable)
// fails the call before it writes anything. Each coupon's ID is IssueID of
// the issuance's nonce and the user's position in the list.
//
// Issue walks Users once and holds one batch of it at a time: its memory
// does not grow with the list. A user that is not an ID (input.ID, as
// field user_ids[position]), or an error Users yields, ends the issuance
// with that error, as any failure does.
//
// Without an idempotency key (Idem), a failure leaves the batches already
// committed in place. With one, the issuance can be resumed: the first
// batch records the request as in flight under the key, with its Now, and
// the nonce is IssueNonce of the key and fingerprint. A retry of the same
// request (same key and fingerprint, so the same list) after a crash walks
// the list again at the first attempt's Now, makes the same IDs, counts
// the coupons it finds by ID as issued, and issues the rest; the last
// batch stores the response, which later retries replay. Any other request
// under the key meanwhile is an idempotency conflict.
type IssueParams struct {
	TemplateID string
	// Users yields the users to issue to, in list order, each with a nil
	// error, or an error that ends the issuance.
	Users iter.Seq2[string, error]
	Now   time.Time
	// BatchSize is how many users one transaction issues to; 0 means
	// DefaultIssueBatch.
	BatchSize int
	// Idem, if set, is the idempotency key the issuance runs under, and can
	// be resumed under.
	Idem *Idempotency
}

// UserList returns users as IssueParams.Users.
func UserList(users []string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for _, u := range users {
			if !yield(u, nil) {
				return
			}
		}
	}
}

// DefaultIssueBatch is the batch size of Issue when IssueParams names none.
const DefaultIssueBatch = 5000

// MaxRefused is the most refusals Issued lists: what an issuance answers
// (and stores under an idempotency key) stays small however long its list.
const MaxRefused = 1000

// Issued is the outcome of Issue.
type Issued struct {
	// Issued counts the coupons issued.
	Issued int64
	// Refused lists the first MaxRefused users refused, in list order.
	Refused []Refusal
	// RefusedCount counts every user refused, by reason.
	RefusedCount map[error]int64
	// SoldOutFrom is, if RefusedCount holds coupon.ErrSoldOut, the list
	// position (from 0) of the first user refused sold-out. The total
	// never grows back, so from there on every user is refused: sold-out,
	// or limit-reached if they already hold their share.
	SoldOutFrom int64
}

// Refusal is one user a bulk issuance refused, and why: coupon.ErrLimitReached
// or coupon.ErrSoldOut.
type Refusal struct {
	UserID string
	Reason error
}

// refuse counts user, at list position at, refused for reason, and lists
// them if fewer than MaxRefused are listed.
func (o *Issued) refuse(user string, at int64, reason error) {
	if len(o.Refused) < MaxRefused {
		o.Refused = append(o.Refused, Refusal{UserID: user, Reason: reason})
	}
	if o.RefusedCount == nil {
		o.RefusedCount = map[error]int64{}
	}
	if reason == coupon.ErrSoldOut && o.RefusedCount[reason] == 0 {
		o.SoldOutFrom = at
	}
	o.RefusedCount[reason]++
}

// plus is o followed by more (the outcome of the users after o's),
// sharing nothing with o.
func (o Issued) plus(more Issued) Issued {
	sum := Issued{
		Issued:       o.Issued + more.Issued,
		Refused:      append(slices.Clip(o.Refused), more.Refused[:min(len(more.Refused), MaxRefused-len(o.Refused))]...),
		RefusedCount: map[error]int64{},
		SoldOutFrom:  o.SoldOutFrom,
	}
	if o.RefusedCount[coupon.ErrSoldOut] == 0 {
		sum.SoldOutFrom = more.SoldOutFrom
	}
	for _, m := range []map[error]int64{o.RefusedCount, more.RefusedCount} {
		for reason, n := range m {
			sum.RefusedCount[reason] += n
		}
	}
	return sum
}

// issueID is the ID of the coupon an issuance run at now with nonce issues
// to the user at position at in its list: the IDs of one issuance increase
// in list order, so that their inserts into the ID indexes (the coupons'
// and their events') append rather than land all over them, which a
// profile of a million-user issuance put at over half its time.
func issueID(now time.Time, nonce uint64, at int64) string {
	return seqID("cpn", now, nonce, uint64(at))
}

// issueNonce returns the nonce that tells an issuance's IDs from those of
// another made in the same millisecond: random, or under an idempotency
// key derived from key and fingerprint, so that a retry makes the same IDs.
func issueNonce(idem *Idempotency) uint64 {
	if idem == nil {
		return rand.Uint64()
	}
	h := sha256.Sum256([]byte(idem.Key + "\x00" + idem.Fingerprint))
	return binary.BigEndian.Uint64(h[:8])
}

// issueStep is what one transaction of a bulk issuance did; only Issue
// reads it.
type issueStep struct {
	issued Issued
	// users counts the users of the batch it got through.
	users int
}

// IssueChunk is how many users a batch of Issue decides on and writes at a
// time: between two chunks it asks whether to make way for another write.
const IssueChunk = 500

// issue runs the bulk issuance p asks for, under p.Idem if set (see
// IssueParams), in a backend's transactions: batch runs fn
// in one write transaction (again, if the backend retries it), without the
// replay a single mutation gets. busy, if set, is asked after each chunk
// of users whether another write waits for the backend; if one does, the
// batch commits what it has and the next one goes on from there.
func issue(p IssueParams, busy func() bool,
	batch func(fn func(*txn) (issueStep, error)) (issueStep, error)) (Issued, error) {
	size := p.BatchSize
	if size <= 0 {
		size = DefaultIssueBatch
	}
	idem, idempotent := p.Idem, p.Idem != nil
	nonce := issueNonce(idem)
	next, stop := iter.Pull2(p.Users)
	defer stop()
	var (
		out  Issued
		from int64    // the list position of bulk[0]
		bulk []string // the users read and not yet issued to
		end  bool     // whether Users has yielded its last
	)
	for {
		for !end && len(bulk) < size {
			u, err, ok := next()
			if err == nil && ok {
				err = input.ID(fmt.Sprintf("user_ids[%d]", from+int64(len(bulk))), u)
			}
			if err != nil {
				return Issued{}, err
			}
			if end = !ok; ok {
				bulk = append(bulk, u)
			}
		}
		step, err := batch(func(t *txn) (issueStep, error) {
			b := issueBatch{templateID: p.TemplateID, users: bulk, from: from, now: p.Now, nonce: nonce}
			if idempotent {
				r, inFlight, err := recorded(t, *idem)
				if err != nil {
					return issueStep{}, err
				}
				if !inFlight {
					r = driver.Request{Fingerprint: idem.Fingerprint, Status: driver.InFlight, Body: []byte{}, Created: p.Now}
					if err := t.PutRequest(t.ctx, driver.RequestParams{Key: idem.storedKey(), Request: r}); err != nil {
						return issueStep{}, err
					}
				}
				// A retry goes on at the first attempt's Now; any attempt's
				// batch after the first may find its coupons committed.
				b.idem, b.now, b.resumed = idem, r.Created, inFlight
			}
			step, err := issueIn(t, b, busy)
			if err != nil || !idempotent || !end || step.users < len(bulk) {
				return step, err
			}
			r, err := idem.result(out.plus(step.issued))
			if err != nil {
				return step, err
			}
			return step, t.FinishRequest(t.ctx, driver.RequestParams{Key: idem.storedKey(), Request: r})
		})
		if err != nil {
			return Issued{}, err
		}
		out = out.plus(step.issued)
		from += int64(step.users)
		bulk = append(bulk[:0], bulk[step.users:]...)
		if end && len(bulk) == 0 {
			return out, nil
		}
	}
}

// issueBatch is one transaction's share of an issuance: users, the first
// at position from in the list.
type issueBatch struct {
	templateID string
	users      []string
	from       int64
	now        time.Time
	nonce      uint64
	// idem, if set, is the key the issuance is resumable under; resumed
	// says an earlier transaction under it may have committed some of the
	// batch's coupons.
	idem    *Idempotency
	resumed bool
}

// issueIn issues, in t, one coupon of b's template to each of b's users
// that the per-user limit and the total allow, as claimIn would one after
// the other, a chunk at a time; after a chunk it stops if busy says another
// write waits. Each chunk's coupons are written by one InsertClaimed.
func issueIn(t *txn, b issueBatch, busy func() bool) (issueStep, error) {
	var out issueStep
	tp, err := t.ClaimTemplate(t.ctx, b.templateID)
	if err != nil {
		return out, err
	}
	if err := tp.Claimable(b.now); err != nil {
		return out, err
	}
	var left int64 // what the total leaves, if there is one
	if tp.Total > 0 {
		issued, err := t.IssuedCount(t.ctx, tp.ID)
		if err != nil {
			return out, err
		}
		left = tp.Total - issued
	}
	held := map[string]int64{} // coupons of the template a user holds, this batch's included
	var added int64
	for out.users < len(b.users) && (out.users == 0 || busy == nil || !busy()) {
		chunk := b.users[out.users:min(out.users+IssueChunk, len(b.users))]
		from := b.from + int64(out.users) // the list position of chunk[0]
		ids := make([]string, len(chunk))
		for i := range chunk {
			ids[i] = issueID(b.now, b.nonce, from+int64(i))
		}
		existing := map[string]bool{}
		if b.resumed {
			if existing, err = t.ExistingCoupons(t.ctx, ids); err != nil {
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
				out.issued.refuse(u, from+int64(i), coupon.ErrLimitReached)
			case tp.Total > 0 && left == 0:
				out.issued.refuse(u, from+int64(i), coupon.ErrSoldOut)
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
			if err := insertClaimed(t, cs); err != nil {
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
	if ok, err := t.TakeIssues(t.ctx, driver.TakeIssuesParams{TemplateID: tp.ID, N: added}); err != nil || !ok {
		return out, orErr(err, coupon.ErrSoldOut)
	}
	if err := t.Count(t.ctx, driver.CountParams{TemplateID: tp.ID, State: coupon.Unused, N: added}); err != nil {
		return out, err
	}
	return out, t.Timer(storetype.TimerExpire, tp.ExpiresAt(b.now))
}

// planIssued plans the reminders of bulk-issued coupons, as a claim does,
// on a store that plans them. An operator's issuance is not the user's
// activity: last_active_at is left alone.
func planIssued(t *txn, cs []coupon.Coupon, tp coupon.Template, now time.Time) error {
	for _, c := range cs {
		if err := t.plan(c, tp, true, now); err != nil {
			return err
		}
	}
	return nil
}

// heldCounts adds to held how many coupons of templateID each of users not
// in it yet holds.
func heldCounts(t *txn, templateID string, users []string, held map[string]int64) error {
	var unseen []string
	for _, u := range users {
		if _, ok := held[u]; !ok {
			unseen = append(unseen, u)
		}
	}
	if len(unseen) == 0 {
		return nil
	}
	got, err := t.HeldCounts(t.ctx, driver.HeldCountsParams{TemplateID: templateID, Users: unseen})
	for _, u := range unseen {
		held[u] = got[u]
	}
	return err
}

// issuedJSON is Issued as an idempotency key records it: each refusal by
// the code it is kept under.
type issuedJSON struct {
	Issued       int64            `json:"issued"`
	Refused      [][2]string      `json:"refused"`
	RefusedCount map[string]int64 `json:"refused_count"`
	SoldOutFrom  int64            `json:"sold_out_from"`
}

// MarshalJSON writes o with its refusals by code.
func (o Issued) MarshalJSON() ([]byte, error) {
	j := issuedJSON{Issued: o.Issued, RefusedCount: map[string]int64{}, SoldOutFrom: o.SoldOutFrom}
	for _, r := range o.Refused {
		j.Refused = append(j.Refused, [2]string{r.UserID, keptCode(r.Reason)})
	}
	for reason, n := range o.RefusedCount {
		j.RefusedCount[keptCode(reason)] = n
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (o *Issued) UnmarshalJSON(b []byte) error {
	var j issuedJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*o = Issued{Issued: j.Issued, SoldOutFrom: j.SoldOutFrom}
	for _, r := range j.Refused {
		o.Refused = append(o.Refused, Refusal{UserID: r[0], Reason: keptError(r[1])})
	}
	for code, n := range j.RefusedCount {
		if o.RefusedCount == nil {
			o.RefusedCount = map[error]int64{}
		}
		o.RefusedCount[keptError(code)] = n
	}
	return nil
}
