package bench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// newTemplate creates a template named name, of value 1000, claimable from
// a minute before now, as edit sets it up, and returns its ID.
func newTemplate(ctx context.Context, st Store, name string, now time.Time, edit func(*coupon.Template)) (string, error) {
	tp := coupon.Template{Name: name, Value: 1000, StartsAt: now.Add(-time.Minute)}
	edit(&tp)
	tp, err := st.CreateTemplate(ctx, store.CreateTemplateParams{Template: tp, Now: now})
	return tp.ID, err
}

// issueTo issues a coupon of tpl to each of users at now through bulk
// issuance, sorted by ID first as docs/api.md advises for long lists: on SQLite
// the inserts into the users' index then land in order, where the lists'
// numeric order (u9, u10, …, u99, u100) sweeps it several times.
func issueTo(ctx context.Context, st Store, tpl string, users []string, now time.Time) error {
	slices.Sort(users)
	got, err := st.Issue(ctx, store.IssueParams{TemplateID: tpl, Users: store.UserList(users), Now: now})
	if err == nil && got.Issued != int64(len(users)) {
		err = fmt.Errorf("issued %d of %d", got.Issued, len(users))
	}
	return err
}

// roundRobin returns the holders of coupons from to to (exclusive) dealt
// round robin to users users.
func roundRobin(from, to, users int) []string {
	out := make([]string, 0, max(to-from, 0))
	for j := from; j < to; j++ {
		out = append(out, userID(j%users))
	}
	return out
}
