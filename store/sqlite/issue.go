package sqlite

import (
	"context"
	"encoding/json"
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
	var out store.Issued
	for next := 0; ; {
		end := min(next+p.BatchSize, len(p.UserIDs))
		step, err := backgroundTx(ctx, s, func(t *tx) (issueStep, error) {
			b := issueBatch{templateID: p.TemplateID, users: p.UserIDs[next:end], from: next, now: p.Now, idem: idem}
			if idem != nil {
				if err := t.issueInFlight(&b); err != nil {
					return issueStep{}, err
				}
			}
			step, err := t.issue(b, s.gate.busy)
			if err != nil || idem == nil || next+step.users < len(p.UserIDs) {
				return step, err
			}
			total := store.Issued{Issued: out.Issued + step.res.Issued, Refused: append(out.Refused, step.res.Refused...)}
			status, body := render(*idem, total)
			_, err = t.exec("FinishIdempotency", idem.Key, status, body)
			return step, err
		})
		if err != nil {
			return store.Issued{}, err
		}
		out.Issued += step.res.Issued
		out.Refused = append(out.Refused, step.res.Refused...)
		if next += step.users; next >= len(p.UserIDs) {
			return out, nil
		}
	}
}

// issueStep is what one transaction of an issuance did.
type issueStep struct {
	res store.Issued
	// users counts the users of the list it got through.
	users int
}

// issueBatch is one transaction's share of an issuance: users, the first
// of whom is at position from in the request's list.
type issueBatch struct {
	templateID string
	users      []string
	from       int
	now        time.Time
	// idem, if set, derives coupon IDs, and existing names the coupons of
	// the batch an earlier attempt committed.
	idem     *store.Idempotency
	existing map[string]bool
}

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
	ids := make([]string, len(b.users))
	for i := range b.users {
		ids[i] = store.IssueID(*b.idem, b.now, b.from+i)
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
	for out.users < len(b.users) && (out.users == 0 || !busy()) {
		chunk := b.users[out.users:min(out.users+issueChunk, len(b.users))]
		if tp.PerUserLimit > 0 {
			if err := t.heldCounts(tp.ID, chunk, held); err != nil {
				return out, err
			}
		}
		issued := make([]string, 0, len(chunk)) // coupon ID then user ID
		for _, u := range chunk {
			id := store.NewID("cpn", b.now)
			if b.idem != nil {
				id = store.IssueID(*b.idem, b.now, b.from+out.users)
			}
			out.users++
			if b.existing[id] { // committed by an earlier attempt, and counted in held and issued
				out.res.Issued++
				continue
			}
			if tp.PerUserLimit > 0 {
				if held[u] >= tp.PerUserLimit {
					out.res.Refused = append(out.res.Refused, store.Refusal{UserID: u, Reason: coupon.ErrLimitReached})
					continue
				}
				held[u]++
			}
			if left == 0 {
				out.res.Refused = append(out.res.Refused, store.Refusal{UserID: u, Reason: coupon.ErrSoldOut})
				continue
			}
			left--
			issued = append(issued, id+u)
		}
		if err := t.insertIssued(tp, b.now, issued); err != nil {
			return out, err
		}
		out.res.Issued += int64(len(issued))
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
	if _, err := t.exec("InsertIssuedEvents", string(list), tp.ID, ms(now), ms(expires), store.IDTime(now)); err != nil {
		return err
	}
	for range issued {
		t.events = append(t.events, store.EventCouponClaimed)
	}
	return nil
}

// heldCounts adds to held how many coupons of templateID each of users
// not in it yet holds.
func (t *tx) heldCounts(templateID string, users []string, held map[string]int64) error {
	var unseen []string
	for _, u := range users {
		if _, ok := held[u]; !ok {
			unseen = append(unseen, u)
		}
	}
	if len(unseen) == 0 {
		return nil
	}
	list, err := json.Marshal(unseen)
	if err != nil {
		return err
	}
	rows, err := t.query("HeldCounts", string(list), templateID)
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
