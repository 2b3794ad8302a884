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
		batch, err := backgroundTx(ctx, s, func(t *tx) (store.Issued, error) {
			b := issueBatch{templateID: p.TemplateID, users: p.UserIDs[next:end], from: next, now: p.Now, idem: idem}
			if idem == nil {
				return t.issue(b)
			}
			if err := t.issueInFlight(&b); err != nil {
				return store.Issued{}, err
			}
			res, err := t.issue(b)
			if err != nil || end < len(p.UserIDs) {
				return res, err
			}
			total := store.Issued{Issued: out.Issued + res.Issued, Refused: append(out.Refused, res.Refused...)}
			status, body := render(*idem, total)
			_, err = t.exec("FinishIdempotency", idem.Key, status, body)
			return res, err
		})
		if err != nil {
			return store.Issued{}, err
		}
		out.Issued += batch.Issued
		out.Refused = append(out.Refused, batch.Refused...)
		if next = end; next >= len(p.UserIDs) {
			return out, nil
		}
	}
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

// issue issues one coupon of b's template to each of b's users. Who gets
// one is decided here; the coupons and their events are then written by
// one statement each.
func (t *tx) issue(b issueBatch) (store.Issued, error) {
	var out store.Issued
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
	var held map[string]int64 // coupons of the template a user holds, this batch's included
	if tp.PerUserLimit > 0 {
		if held, err = t.heldCounts(tp.ID, b.users); err != nil {
			return out, err
		}
	}
	issued := make([]string, 0, len(b.users)) // coupon ID then user ID
	for i, u := range b.users {
		id := store.NewID("cpn", b.now)
		if b.idem != nil {
			id = store.IssueID(*b.idem, b.now, b.from+i)
		}
		if b.existing[id] { // committed by an earlier attempt, and counted in held and issued
			out.Issued++
			continue
		}
		if tp.PerUserLimit > 0 {
			if held[u] >= tp.PerUserLimit {
				out.Refused = append(out.Refused, store.Refusal{UserID: u, Reason: coupon.ErrLimitReached})
				continue
			}
			held[u]++
		}
		if left == 0 {
			out.Refused = append(out.Refused, store.Refusal{UserID: u, Reason: coupon.ErrSoldOut})
			continue
		}
		left--
		issued = append(issued, id+u)
		out.Issued++
	}
	if len(issued) == 0 {
		return out, nil
	}
	list, err := json.Marshal(issued)
	if err != nil {
		return out, err
	}
	expires := tp.ExpiresAt(b.now)
	if _, err := t.exec("InsertIssued", string(list), tp.ID, ms(b.now), ms(expires)); err != nil {
		return out, err
	}
	if _, err := t.exec("InsertIssuedEvents", string(list), tp.ID, ms(b.now), ms(expires), store.IDTime(b.now)); err != nil {
		return out, err
	}
	for range issued {
		t.events = append(t.events, store.EventCouponClaimed)
	}
	n := int64(len(issued))
	if _, err := t.exec("AddIssued", tp.ID, n); err != nil {
		return out, err
	}
	if err := t.count(tp.ID, coupon.Unused.String(), n); err != nil {
		return out, err
	}
	return out, t.timer(store.TimerExpire, expires)
}

// heldCounts returns how many coupons of templateID each of users holds.
func (t *tx) heldCounts(templateID string, users []string) (map[string]int64, error) {
	list, err := json.Marshal(users)
	if err != nil {
		return nil, err
	}
	rows, err := t.query("HeldCounts", string(list), templateID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	held := map[string]int64{}
	for rows.Next() {
		var (
			u string
			n int64
		)
		if err := rows.Scan(&u, &n); err != nil {
			return nil, err
		}
		held[u] = n
	}
	return held, rows.Err()
}
