package sqlite

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// Issue issues coupons of p.TemplateID to p.UserIDs, a batch of users per
// transaction, resumably under an idempotency key (see store.IssueParams).
// A batch ends early to make way for a user waiting to write.
func (s *Store) Issue(ctx context.Context, p store.IssueParams) (store.Issued, error) {
	if p.BatchSize <= 0 {
		p.BatchSize = store.DefaultIssueBatch
	}
	var idem *store.Idempotency
	if i, ok := store.IdempotencyFrom(ctx); ok {
		idem = &i
	}
	order, err := s.issueOrder(ctx, p)
	if err != nil {
		return store.Issued{}, err
	}
	nonce := store.IssueNonce(idem)
	var done issueStep
	for next := 0; ; {
		end := min(next+p.BatchSize, len(order))
		step, err := backgroundTx(ctx, s, func(t *tx) (issueStep, error) {
			b := issueBatch{templateID: p.TemplateID, list: p.UserIDs, at: order[next:end], from: next,
				now: p.Now, nonce: nonce, idem: idem}
			if idem != nil {
				if err := t.issueInFlight(&b); err != nil {
					return issueStep{}, err
				}
			}
			step, err := t.issue(b, s.gate.busy)
			if err != nil || idem == nil || next+step.users < len(order) {
				return step, err
			}
			status, body := render(*idem, done.plus(step).outcome())
			_, err = t.exec("FinishIdempotency", idem.Key, status, body)
			return step, err
		})
		if err != nil {
			return store.Issued{}, err
		}
		done = done.plus(step)
		if next += step.users; next >= len(order) {
			return done.outcome(), nil
		}
	}
}

// issueOrder returns the positions in p.UserIDs in the order to issue to
// them. In list order the inserts into the users' index (user_id,
// template_id) land all over it and every batch rewrites thousands of its
// pages; in user order they land on neighbouring pages. The outcome is the
// same unless a total runs out during the list, so templates with a total
// are issued in list order. The order depends only on the list and the
// template, as IssueID needs.
func (s *Store) issueOrder(ctx context.Context, p store.IssueParams) ([]int, error) {
	order := make([]int, len(p.UserIDs))
	for i := range order {
		order[i] = i
	}
	var total, issued int64
	if err := s.readRow(ctx, "TemplateTotal", p.TemplateID).Scan(&total, &issued); err != nil {
		return nil, interpret(err)
	}
	if total == 0 {
		slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(p.UserIDs[a], p.UserIDs[b]) })
	}
	return order, nil
}

// issueStep is what one or more transactions of an issuance did.
type issueStep struct {
	issued  int64
	refused []refusal
	// users counts the users of the list it got through.
	users int
}

// refusal is a refused user and their position in the list.
type refusal struct {
	at int
	store.Refusal
}

// plus returns s and then o.
func (s issueStep) plus(o issueStep) issueStep {
	return issueStep{issued: s.issued + o.issued, refused: append(slices.Clip(s.refused), o.refused...), users: s.users + o.users}
}

// outcome is s as Issue answers it, the refusals in list order.
func (s issueStep) outcome() store.Issued {
	rs := slices.SortedFunc(slices.Values(s.refused), func(a, b refusal) int { return a.at - b.at })
	out := store.Issued{Issued: s.issued}
	for _, r := range rs {
		out.Refused = append(out.Refused, r.Refusal)
	}
	return out
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
	// idem, if set, is the key the issuance is resumable under, and
	// existing names the coupons of the batch an earlier attempt committed.
	idem     *store.Idempotency
	existing map[string]bool
}

// id returns the ID of the coupon of the batch's i-th user.
func (b *issueBatch) id(i int) string { return store.IssueID(b.now, b.nonce, b.from+i) }

// issueInFlight records b's request as in flight under its key or, if it
// already is, takes over the first attempt's Now and looks up which of the
// batch's coupons that attempt committed. A finished request replays.
func (t *tx) issueInFlight(b *issueBatch) error {
	inProgress, started, err := t.replay(*b.idem)
	if err != nil {
		return err
	}
	if !inProgress {
		_, err := t.exec("PutIdempotency", b.idem.Key, b.idem.Fingerprint, inFlight, []byte{}, ms(b.now))
		return err
	}
	b.now = started
	ids := make([]string, len(b.at))
	for i := range b.at {
		ids[i] = b.id(i)
	}
	list, _ := json.Marshal(ids)
	rows, err := t.query("ExistingCoupons", string(list))
	if err != nil {
		return err
	}
	defer rows.Close()
	b.existing = map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		b.existing[id] = true
	}
	return rows.Err()
}

// issueChunk is how many users one statement of a bulk issuance writes.
// Between two, a batch looks whether a user's write waits for the writer
// and, if one does, commits what it has.
const issueChunk = 500

// issue issues one coupon of b's template to each of b's users, a chunk at
// a time, and ends early after a chunk if busy says a user waits. Who gets
// a coupon is decided here; each chunk's coupons and their events are then
// written by one statement each.
func (t *tx) issue(b issueBatch, busy func() bool) (issueStep, error) {
	var out issueStep
	tp, err := scanTemplate(t.queryRow("GetTemplate", b.templateID))
	if err != nil {
		return out, err
	}
	if err := tp.Claimable(b.now); err != nil {
		return out, err
	}
	left := int64(-1) // unlimited
	if tp.Total > 0 {
		var issued int64
		if err := t.queryRow("TemplateIssued", tp.ID).Scan(&issued); err != nil {
			return out, err
		}
		left = tp.Total - issued
	}
	held := map[string]int64{} // coupons of the template a user holds, this batch's included
	var added int64
	for out.users < len(b.at) && (out.users == 0 || !busy()) {
		chunk := b.at[out.users:min(out.users+issueChunk, len(b.at))]
		if tp.PerUserLimit > 0 {
			if err := t.heldCounts(tp.ID, b.list, chunk, held); err != nil {
				return out, err
			}
		}
		issued := make([]string, 0, len(chunk)) // coupon ID then user ID
		for _, at := range chunk {
			u, id := b.list[at], b.id(out.users)
			out.users++
			if b.existing[id] { // committed by an earlier attempt, and counted in held and issued
				out.issued++
				continue
			}
			if tp.PerUserLimit > 0 {
				if held[u] >= tp.PerUserLimit {
					out.refused = append(out.refused, refusal{at, store.Refusal{UserID: u, Reason: coupon.ErrLimitReached}})
					continue
				}
				held[u]++
			}
			if left == 0 {
				out.refused = append(out.refused, refusal{at, store.Refusal{UserID: u, Reason: coupon.ErrSoldOut}})
				continue
			}
			left--
			issued = append(issued, id+u)
		}
		if err := t.insertIssued(tp, b.now, issued); err != nil {
			return out, err
		}
		out.issued += int64(len(issued))
		added += int64(len(issued))
	}
	if added == 0 {
		return out, nil
	}
	if _, err := t.exec("AddIssued", tp.ID, added); err != nil {
		return out, err
	}
	if err := t.count(tp.ID, coupon.Unused.String(), added); err != nil {
		return out, err
	}
	return out, t.timer(store.TimerExpire, tp.ExpiresAt(b.now))
}

// insertIssued writes the coupons of tp claimed at now that issued lists
// (each a coupon ID followed by a user ID) and their coupon.claimed events.
func (t *tx) insertIssued(tp coupon.Template, now time.Time, issued []string) error {
	if len(issued) == 0 {
		return nil
	}
	list, err := json.Marshal(issued)
	if err != nil {
		return err
	}
	expires := tp.ExpiresAt(now)
	if _, err := t.exec("InsertIssued", string(list), tp.ID, ms(now), ms(expires)); err != nil {
		return err
	}
	if _, err := t.exec("InsertIssuedEvents", string(list), tp.ID, ms(now), ms(expires), store.IDTime(now), apiTime(expires)); err != nil {
		return err
	}
	for range issued {
		t.events = append(t.events, store.EventCouponClaimed)
	}
	return nil
}

// heldCounts adds to held how many coupons of templateID each user of list
// at the positions at holds, for those not in it yet.
func (t *tx) heldCounts(templateID string, list []string, at []int, held map[string]int64) error {
	var unseen []string
	for _, i := range at {
		if _, ok := held[list[i]]; !ok {
			unseen = append(unseen, list[i])
		}
	}
	if len(unseen) == 0 {
		return nil
	}
	users, err := json.Marshal(unseen)
	if err != nil {
		return err
	}
	rows, err := t.query("HeldCounts", string(users), templateID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			u string
			n int64
		)
		if err := rows.Scan(&u, &n); err != nil {
			return err
		}
		held[u] = n
	}
	return rows.Err()
}
