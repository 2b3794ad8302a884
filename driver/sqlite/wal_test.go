package sqlite_test

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
)

// TestWALShrinks: the WAL file keeps what writes grew it to while they go
// on, and is truncated once none came for sqlite.ShrinkAfter; the data
// stays.
func TestWALShrinks(t *testing.T) {
	ctx := t.Context()
	path := tempPath(t)
	s := open(t, path, sqlite.Options{})
	tp := storetest.Template(t, s, t0, nil)
	for i := range 500 {
		if _, err := s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u" + strconv.Itoa(i), Now: t0}); err != nil {
			t.Fatalf("Claim: %v", err)
		}
	}
	size := func() int64 {
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			t.Fatalf("the WAL: %v", err)
		}
		return fi.Size()
	}
	grown, wrote := size(), time.Now()
	if grown == 0 {
		t.Fatalf("the WAL is empty after 500 claims")
	}
	for size() != 0 {
		if time.Since(wrote) > sqlite.ShrinkAfter+5*time.Second {
			t.Fatalf("the WAL is %d bytes %s after the last commit, want it truncated after %s", size(), time.Since(wrote), sqlite.ShrinkAfter)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if took := time.Since(wrote); took < sqlite.ShrinkAfter {
		t.Fatalf("the WAL was truncated %s after the last commit, before %s", took, sqlite.ShrinkAfter)
	}
	t.Logf("the WAL grew to %d bytes and was truncated %s after the last commit", grown, time.Since(wrote).Round(time.Millisecond))
	info, err := s.Template(ctx, store.TemplateParams{ID: tp.ID, Now: t0})
	if err != nil || info.Counts[coupon.Unused] != 500 {
		t.Fatalf("after the truncation: %+v, %v; want 500 unused", info, err)
	}
}
