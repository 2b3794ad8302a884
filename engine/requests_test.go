package engine_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/store"
)

// TestPrunesExpiredKeys: every PruneInterval the engine deletes the
// idempotency keys older than its IdempotencyTTL, and no other. The
// requests here hold their keys longer than that, so a key pruned is seen
// gone: its request runs anew.
func TestPrunesExpiredKeys(t *testing.T) {
	inBubble(t, engine.Config{IdempotencyTTL: time.Hour, PruneInterval: time.Minute}, func(t *testing.T, r *rig) {
		tp := r.template(t, coupon.Template{Duration: 24 * time.Hour})
		claim := func(key string) error {
			now := time.Now()
			idem := &store.Idempotency{Key: key, Fingerprint: "fp", Now: now, TTL: 48 * time.Hour}
			_, err := r.st.Claim(context.Background(), store.ClaimParams{TemplateID: tp.ID, UserID: "u", Now: now, Idem: idem})
			return err
		}
		for _, key := range []string{"old1", "old2", "old3"} {
			if err := claim(key); err != nil {
				t.Fatalf("claim under %s: %v", key, err)
			}
		}
		time.Sleep(30 * time.Minute)
		if err := claim("new"); err != nil {
			t.Fatalf("claim under new: %v", err)
		}
		r.start(t)
		time.Sleep(32 * time.Minute) // the old keys are an hour old, the new one half that
		synctest.Wait()
		wantValue(t, engine.PrunedOf(r.metrics), 3, "keys pruned")
		var replay *store.ReplayError
		if err := claim("new"); !errors.As(err, &replay) {
			t.Fatalf("retry under the new key: got %v, want a replay", err)
		}
		if err := claim("old1"); err != nil {
			t.Fatalf("claim under a pruned key: got %v, want it to run anew", err)
		}
	})
}
