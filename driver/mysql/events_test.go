package mysql_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// TestEventsLateCommit: of two transactions, the one that started writing
// first commits last. A reader between the two commits sees only the
// early commit's event, and its cursor must not pass the late one's: the
// late event is found after it once its transaction commits.
func TestEventsLateCommit(t *testing.T) {
	ctx := t.Context()
	url := freshDB(t)
	s := open(t, url, mysql.Options{})
	a, b := storetest.Template(t, s, t0, nil), storetest.Template(t, s, t0, nil)

	// The late transaction: its claim is written when its key is recorded
	// (just before its commit), and it waits there.
	release := make(chan struct{})
	done := storetest.PausedClaim(t, openDriver(t, url, mysql.Options{}), store.ClaimParams{TemplateID: a.ID, UserID: "late", Now: t0,
		Idem: &store.Idempotency{Key: "late", Fingerprint: "fp", Now: t0}}, release)

	early := claim(t, s, b.ID, "early")
	seen, err := s.Events(ctx, store.EventsParams{After: 0, Limit: 100})
	if err != nil {
		t.Fatalf("Events between the commits: %v", err)
	}
	if len(seen) != 1 || seen[0].Subject != early.ID {
		t.Fatalf("events between the commits: got %d (%v), want only the early commit's", len(seen), seen)
	}
	cursor := seen[0].Seq

	close(release)
	if late := <-done; late.Err != nil {
		t.Fatalf("late claim: %v", late.Err)
	}
	rest, err := s.Events(ctx, store.EventsParams{After: cursor, Limit: 100})
	if err != nil {
		t.Fatalf("Events after the cursor: %v", err)
	}
	if len(rest) != 1 || rest[0].Type != store.EventCouponClaimed || rest[0].Subject == early.ID {
		t.Fatalf("events after cursor %d: got %v, want the late claim's", cursor, rest)
	}
}

// TestEventsFeedTail: writers commit concurrently while a reader tails the
// feed. Positions have no gaps, so the reader must always find the one
// right after its cursor next: a jump would mean an event with a smaller
// seq is still to commit, and the cursor would pass it.
func TestEventsFeedTail(t *testing.T) {
	const writers, claims = 4, 40
	ctx := t.Context()
	s := open(t, freshDB(t), mysql.Options{})
	var wg sync.WaitGroup
	for w := range writers {
		tp := storetest.Template(t, s, t0, nil)
		wg.Go(func() {
			for i := range claims {
				if _, err := s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: fmt.Sprintf("w%d-%d", w, i), Now: t0}); err != nil {
					t.Errorf("writer %d claim %d: %v", w, i, err)
					return
				}
			}
		})
	}
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()

	cursor, reads := int64(0), 0
	for cursor < writers*claims {
		select {
		case <-stopped:
			if t.Failed() {
				return
			}
		default:
		}
		page, err := s.Events(ctx, store.EventsParams{After: cursor, Limit: 7})
		if err != nil {
			t.Fatalf("Events(after %d): %v", cursor, err)
		}
		reads++
		for _, e := range page {
			if e.Seq != cursor+1 {
				t.Fatalf("read %d: after %d came seq %d: the cursor passed an event not yet committed", reads, cursor, e.Seq)
			}
			cursor = e.Seq
		}
	}
	<-stopped
	if rest, err := s.Events(ctx, store.EventsParams{After: cursor, Limit: 1}); err != nil || len(rest) != 0 {
		t.Fatalf("after all %d events: got %v (err %v), want nothing more", cursor, rest, err)
	}
	t.Logf("%d events read in %d pages while they were written", cursor, reads)
}

// TestEventsNoCommitLock: a transaction that has written its outbox
// record and stays open holds no other writer's commit back, and its
// events, once it commits, come after what a reader passed meanwhile.
// The open transaction writes its record with the store's own statement.
func TestEventsNoCommitLock(t *testing.T) {
	ctx := t.Context()
	url := freshDB(t)
	s := open(t, url, mysql.Options{})
	tp := storetest.Template(t, s, t0, nil)

	held, err := rawDB(t, url).BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer held.Rollback()
	heldEvent := storetype.Event{ID: "evt_held", Type: "test.held", Subject: "held", Time: t0, Data: json.RawMessage(`{}`)}
	body := store.EncodeRecord([]storetype.Event{heldEvent})
	if _, err := held.ExecContext(ctx, mysql.QueryText("InsertRecord", 0), 1, heldEvent.ID, t0, body); err != nil {
		t.Fatalf("write a record: %v", err)
	}

	// Were positions taken under a lock held to the commit, this claim
	// would wait for the held transaction, here until the deadline.
	bounded, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := s.Claim(bounded, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0}); err != nil {
		t.Fatalf("claim beside an open writer: %v", err)
	}
	passed, err := s.Events(ctx, store.EventsParams{Limit: 100})
	if err != nil || len(passed) != 1 || passed[0].Type != store.EventCouponClaimed {
		t.Fatalf("feed while the held record is open: got %v (%v), want the claim only", passed, err)
	}
	if err := held.Commit(); err != nil {
		t.Fatalf("commit the held transaction: %v", err)
	}
	later, err := s.Events(ctx, store.EventsParams{After: passed[0].Seq, Limit: 100})
	if err != nil || len(later) != 1 || later[0].ID != heldEvent.ID || later[0].Seq != passed[0].Seq+1 {
		t.Fatalf("feed after the cursor %d once the held record committed: got %v (%v), want evt_held next", passed[0].Seq, later, err)
	}
}
