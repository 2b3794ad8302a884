package sqlite

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// TestExpireDueMakesWay: a drain batch that sees a user's write waiting
// commits after the chunk in hand, with Next saying more is due; with no
// one waiting it takes its whole limit.
func TestExpireDueMakesWay(t *testing.T) {
	ctx := t.Context()
	drv, s := gated(t, store.Hooks{})
	tp := createTemplate(t, s, coupon.Template{EndsAt: t0.Add(time.Hour)})
	users := userIDs(5 * expireChunk)
	issue(t, s, tp.ID, users)
	now := t0.Add(time.Hour)

	done := drv.gate.enter() // a user's write is waiting
	d, err := s.ExpireDue(ctx, storetype.DueParams{Now: now, Limit: len(users)})
	done()
	if err != nil {
		t.Fatalf("ExpireDue with a user waiting: %v", err)
	}
	if len(d.Due) != expireChunk || !d.Next.Equal(now) {
		t.Fatalf("with a user waiting: expired %d, next %s; want %d and %s", len(d.Due), d.Next, expireChunk, now)
	}
	d, err = s.ExpireDue(ctx, storetype.DueParams{Now: now, Limit: len(users)})
	if err != nil {
		t.Fatalf("ExpireDue: %v", err)
	}
	if len(d.Due) != len(users)-expireChunk || !d.Next.IsZero() {
		t.Fatalf("with no one waiting: expired %d, next %s; want %d and none", len(d.Due), d.Next, len(users)-expireChunk)
	}
	info, err := s.Template(ctx, store.TemplateParams{ID: tp.ID, Now: now})
	if err != nil {
		t.Fatalf("Template: %v", err)
	}
	if info.Counts[coupon.Expired] != int64(len(users)) || info.Counts[coupon.Unused] != 0 {
		t.Fatalf("counts: got %v, want all %d expired", info.Counts, len(users))
	}
}

// TestIssueMakesWay: an issuance batch that sees a user's write waiting
// commits after the chunk in hand and goes on in another transaction; with
// no one waiting one batch takes its whole size.
func TestIssueMakesWay(t *testing.T) {
	var commits []int
	d, s := gated(t, store.Hooks{OnEvents: func(events []storetype.Event) {
		commits = append(commits, len(events))
	}})
	tp := createTemplate(t, s, coupon.Template{Duration: time.Hour, PerUserLimit: 1})
	users := userIDs(2*store.IssueChunk + store.IssueChunk/2)

	done := d.gate.enter() // a user's write is waiting
	got := issue(t, s, tp.ID, users)
	done()
	if want := []int{store.IssueChunk, store.IssueChunk, store.IssueChunk / 2}; got.Issued != int64(len(users)) || !slices.Equal(commits, want) {
		t.Fatalf("with a user waiting: issued %d in commits of %v, want %d in %v", got.Issued, commits, len(users), want)
	}
	commits = nil
	got = issue(t, s, tp.ID, append(users[:10:10], users...)) // all refused: nothing to commit
	if refused := got.RefusedCount[coupon.ErrLimitReached]; got.Issued != 0 || refused != int64(len(users)+10) || len(commits) != 0 {
		t.Fatalf("issuance to holders: issued %d, refused %d, commits %v; want 0, %d, none", got.Issued, refused, commits, len(users)+10)
	}
	tp = createTemplate(t, s, coupon.Template{Duration: time.Hour})
	if got = issue(t, s, tp.ID, users); got.Issued != int64(len(users)) || !slices.Equal(commits, []int{len(users)}) {
		t.Fatalf("with no one waiting: issued %d in commits of %v, want %d in one", got.Issued, commits, len(users))
	}
}

// TestOperationMakesWay: a batch of a bulk operation that sees a user's
// write waiting commits after the chunk in hand, and the next batch goes
// on after it; with no one waiting, one batch takes its whole limit.
func TestOperationMakesWay(t *testing.T) {
	ctx := t.Context()
	d, s := gated(t, store.Hooks{})
	n := 2*store.OperationChunk + store.OperationChunk/2
	voids := func() []int64 {
		t.Helper()
		tp := createTemplate(t, s, coupon.Template{Duration: time.Hour})
		issue(t, s, tp.ID, userIDs(n))
		op, err := s.StartOperation(ctx, store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tp.ID}, Now: t0})
		if err != nil {
			t.Fatalf("StartOperation: %v", err)
		}
		if _, ok, err := s.ClaimOperation(ctx, store.ClaimOperationParams{Holder: "h", TTL: time.Minute, Now: t0}); !ok || err != nil {
			t.Fatalf("ClaimOperation: %v, %v", ok, err)
		}
		var done []int64
		for op.State == storetype.OperationRunning {
			if op, err = s.WorkOperation(ctx, store.WorkOperationParams{ID: op.ID, Holder: "h", TTL: time.Minute, Now: t0, Limit: 4 * store.OperationChunk}); err != nil {
				t.Fatalf("WorkOperation: %v", err)
			}
			done = append(done, op.Done)
		}
		if op.Counts.Voided != int64(n) {
			t.Fatalf("voided %d, want %d", op.Counts.Voided, n)
		}
		return done
	}
	leave := d.gate.enter() // a user's write is waiting
	got := voids()
	leave()
	if want := []int64{store.OperationChunk, 2 * store.OperationChunk, int64(n)}; !slices.Equal(got, want) {
		t.Fatalf("with a user waiting: done after each batch %v, want %v", got, want)
	}
	if got := voids(); !slices.Equal(got, []int64{int64(n)}) {
		t.Fatalf("with no one waiting: done after each batch %v, want %d in one", got, n)
	}
}

// t0 is the tests' reference instant.
var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// gated opens a driver on a new file, closed when t ends, and the store
// over it with hooks h: the driver, whose gate a test enters, and the
// store.
func gated(t *testing.T, h store.Hooks) (*Driver, *store.DB) {
	t.Helper()
	d := storetest.OpenFunc[*Driver, Options](Open).Driver(t, filepath.Join(t.TempDir(), "lapse.db"), Options{})
	return d, store.New(d, store.Options{Hooks: h})
}

// createTemplate creates tp, claimable from t0, named "t" and worth 1.
func createTemplate(t *testing.T, s *store.DB, tp coupon.Template) coupon.Template {
	t.Helper()
	tp.Name, tp.Value, tp.StartsAt = "t", 1, t0
	got, err := s.CreateTemplate(t.Context(), store.CreateTemplateParams{Now: t0, Template: tp})
	if err != nil {
		t.Fatalf("CreateTemplate: %v", err)
	}
	return got
}

// userIDs returns n user IDs: u0, u1, and so on.
func userIDs(n int) []string {
	users := make([]string, n)
	for i := range users {
		users[i] = "u" + strconv.Itoa(i)
	}
	return users
}

// issue issues a coupon of tplID to each of users at t0.
func issue(t *testing.T, s *store.DB, tplID string, users []string) store.Issued {
	t.Helper()
	got, err := s.Issue(t.Context(), store.IssueParams{TemplateID: tplID, Users: store.UserList(users), Now: t0})
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	return got
}
