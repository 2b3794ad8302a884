package sqlite_test

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store"
)

// BenchmarkIssue measures bulk issuance: 10,000 users a call, to a
// template without limits and to one with a per-user limit.
func BenchmarkIssue(b *testing.B) {
	users := make([]string, 10_000)
	for i := range users {
		users[i] = "user-" + strconv.Itoa(i)
	}
	for _, limit := range []int64{0, 1} {
		b.Run("per_user_limit="+strconv.FormatInt(limit, 10), func(b *testing.B) {
			d, err := sqlite.Open(b.Context(), filepath.Join(b.TempDir(), "lapse.db"), sqlite.Options{})
			if err != nil {
				b.Fatalf("Open: %v", err)
			}
			s := store.New(d, store.Options{})
			defer s.Close()
			for b.Loop() {
				tp, err := s.CreateTemplate(b.Context(), store.CreateTemplateParams{Now: t0, Template: coupon.Template{
					Name: "t", Value: 1, StartsAt: t0, Duration: time.Hour, PerUserLimit: limit}})
				if err != nil {
					b.Fatalf("CreateTemplate: %v", err)
				}
				if _, err := s.Issue(b.Context(), store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users), Now: t0}); err != nil {
					b.Fatalf("Issue: %v", err)
				}
			}
			b.ReportMetric(float64(b.N*len(users))/b.Elapsed().Seconds(), "users/s")
		})
	}
}
