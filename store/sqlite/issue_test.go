package sqlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlite"
)

// TestIssueResumes: an issuance under a key that dies after its first batch
// committed (here its context is cancelled from the commit hook) is
// finished by a retry of the same request: at the first attempt's Now,
// every user issued to once, and the whole outcome answered and stored.
func TestIssueResumes(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	commits := 0
	s := open(t, tempPath(t), sqlite.Options{OnEvents: func([]string) {
		if commits++; commits == 1 {
			cancel()
		}
	}})
	tp := template(t, s, func(tp *coupon.Template) { tp.PerUserLimit = 1 })
	renders := 0
	idem := func(now time.Time) store.Idempotency {
		return store.Idempotency{Key: "bulk", Fingerprint: "fp", Now: now, Render: func(res any) (int, []byte) {
			renders++
			return 200, []byte("done")
		}}
	}
	p := store.IssueParams{TemplateID: tp.ID, UserIDs: []string{"u0", "u1", "u0", "u2", "u3", "u4"}, Now: t0, BatchSize: 2}

	_, err := s.Issue(store.WithIdempotency(ctx, idem(t0)), p)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first attempt: got %v, want %v", err, context.Canceled)
	}
	held := func(u string) []coupon.Coupon {
		cs, err := s.UserCoupons(t.Context(), store.UserCouponsParams{UserID: u, Now: t0})
		if err != nil {
			t.Fatalf("UserCoupons(%s): %v", u, err)
		}
		return cs
	}
	claimed := func() int {
		evs, err := s.Events(t.Context(), store.EventsParams{Limit: 100})
		if err != nil {
			t.Fatalf("Events: %v", err)
		}
		return len(evs)
	}
	if n := claimed(); n == 0 || n >= 5 {
		t.Fatalf("after the first batch: %d coupons issued, want some but not all 5", n)
	}

	// Meanwhile the key is taken: a claim under it is another request.
	_, err = s.Claim(store.WithIdempotency(t.Context(), store.Idempotency{Key: "bulk", Fingerprint: "claim", Now: t0, Render: idem(t0).Render}),
		store.ClaimParams{TemplateID: tp.ID, UserID: "u9", Now: t0})
	if !errors.Is(err, store.ErrIdempotencyConflict) {
		t.Fatalf("claim under the in-flight key: got %v, want %v", err, store.ErrIdempotencyConflict)
	}

	later := t0.Add(time.Minute)
	p.Now = later
	got, err := s.Issue(store.WithIdempotency(t.Context(), idem(later)), p)
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	if got.Issued != 5 || len(got.Refused) != 1 || got.Refused[0].UserID != "u0" || got.Refused[0].Reason != coupon.ErrLimitReached {
		t.Fatalf("retry: got %+v, want 5 issued and u0 refused limit-reached", got)
	}
	for _, u := range []string{"u0", "u1", "u2", "u3", "u4"} {
		cs := held(u)
		if len(cs) != 1 {
			t.Fatalf("%s holds %d coupons, want 1", u, len(cs))
		}
		if !cs[0].ClaimedAt.Equal(t0) {
			t.Fatalf("%s's coupon claimed at %s, want the first attempt's %s", u, cs[0].ClaimedAt, t0)
		}
	}
	if n := claimed(); n != 5 {
		t.Fatalf("coupon.claimed events: got %d, want 5", n)
	}
	info, err := s.Template(t.Context(), store.TemplateParams{ID: tp.ID, Now: t0})
	if err != nil {
		t.Fatalf("Template: %v", err)
	}
	if info.Counts[coupon.Unused] != 5 {
		t.Fatalf("unused count: got %d, want 5", info.Counts[coupon.Unused])
	}
	if renders != 1 {
		t.Fatalf("renders: got %d, want 1", renders)
	}
	_, err = s.Issue(store.WithIdempotency(t.Context(), idem(later)), p)
	var replay *store.ReplayError
	if !errors.As(err, &replay) || string(replay.Body) != "done" {
		t.Fatalf("second retry: got %v, want the stored response replayed", err)
	}
}

// BenchmarkIssue measures bulk issuance: 10,000 users a call, to a
// template without limits and to one with a per-user limit.
func BenchmarkIssue(b *testing.B) {
	users := make([]string, 10_000)
	for i := range users {
		users[i] = "user-" + strconv.Itoa(i)
	}
	for _, limit := range []int64{0, 1} {
		b.Run("per_user_limit="+strconv.FormatInt(limit, 10), func(b *testing.B) {
			s, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "lapse.db"), sqlite.Options{})
			if err != nil {
				b.Fatalf("Open: %v", err)
			}
			defer s.Close()
			for b.Loop() {
				tp, err := s.CreateTemplate(b.Context(), store.CreateTemplateParams{Now: t0, Template: coupon.Template{
					Name: "t", Value: 1, StartsAt: t0, Duration: time.Hour, PerUserLimit: limit}})
				if err != nil {
					b.Fatalf("CreateTemplate: %v", err)
				}
				if _, err := s.Issue(b.Context(), store.IssueParams{TemplateID: tp.ID, UserIDs: users, Now: t0}); err != nil {
					b.Fatalf("Issue: %v", err)
				}
			}
			b.ReportMetric(float64(b.N*len(users))/b.Elapsed().Seconds(), "users/s")
		})
	}
}
