package main

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
)

// stormCoupons is how many coupons the distributed tests make due at once.
const stormCoupons = 100_000

// sharedArgs run an instance among several: leases that pass on within
// two seconds, and batches small enough that a storm takes many.
var sharedArgs = []string{"--lease-ttl", "2s", "--batch-size", "500"}

// onShared runs test on each backend many instances can share.
func onShared(t *testing.T, test func(t *testing.T, be backend)) {
	for _, be := range backends {
		if be.name == sqliteBackend.name {
			continue // embedded: one process
		}
		t.Run(be.name, func(t *testing.T) { test(t, be) })
	}
}

// startShared starts n instances of lapse on the store at db.
func startShared(t *testing.T, db string, n int, extra ...string) []*server {
	t.Helper()
	ss := make([]*server, n)
	for i := range ss {
		ss[i] = start(t, db, append(append([]string{"--instance", fmt.Sprintf("i%d", i)}, sharedArgs...), extra...)...)
	}
	return ss
}

// seedStorm issues n coupons due at one instant, soon after the seeding
// ends, through s; it fails if seeding outlasted the lead.
func seedStorm(t *testing.T, s *server, n int, lead time.Duration) []client.Coupon {
	t.Helper()
	endsAt := time.Now().Add(lead)
	_, cs := s.seed(t, n, endsAt)
	if time.Until(endsAt) < time.Second {
		t.Fatalf("seeding %d coupons outlasted the %s lead: nothing was tested", n, lead)
	}
	return cs
}

// metric reads one sample of lapse's /metrics, 0 if absent.
func (s *server) metric(t *testing.T, sample string) float64 {
	t.Helper()
	resp, err := httpc.Get(s.base + "/metrics")
	if err != nil {
		t.Fatalf("GET /metrics: %v", err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), sample+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", sample, err)
			}
			return f
		}
	}
	return 0
}

// expiredBy is the sample of the coupons an instance expired.
const expiredBy = `lapse_transitions_total{type="coupon.expired"}`

// waitAllExpired polls until n coupon.expired events are in the feed,
// for at most three minutes.
func waitAllExpired(t *testing.T, s *server, n int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	expired := follow("coupon.expired")
	for len(expired.read(t, s)) < n {
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d coupons expired in three minutes", n)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// drainedAfter fails the test unless a batch that began after at, a
// second into what happened then, expired coupons: the storm was still
// draining, so what happened was tested.
func drainedAfter(t *testing.T, s *server, at time.Time, what string) {
	t.Helper()
	for _, e := range s.feed(t, "coupon.expired") {
		if e.Time.After(at) {
			return
		}
	}
	t.Fatalf("the storm was drained within a second of %s: nothing was tested", what)
}

// waitFirstExpiry waits for the storm's first stored expiry, by any of
// the instances ss, as their metrics count them. (Not as the feed shows
// it: finding the feed's end walks every claim of the storm, which under
// CI's load took longer than the storm.)
func waitFirstExpiry(t *testing.T, ss []*server) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, s := range ss {
			if s.metric(t, expiredBy) > 0 {
				return
			}
		}
	}
	t.Fatalf("waited a minute for the storm's first stored expiry")
}

// TestInstancesShareAStorm: three instances on one database, 100,000
// coupons due at one instant: each instance expires a part, and every
// coupon is expired exactly once, none early.
func TestInstancesShareAStorm(t *testing.T) {
	onShared(t, func(t *testing.T, be backend) {
		ss := startShared(t, be.store(t), 3)
		cs := seedStorm(t, ss[0], stormCoupons, be.stormLead)
		waitAllExpired(t, ss[0], len(cs))
		checkAllExpiredOnce(t, ss[0], cs)
		total := 0.0
		for i, s := range ss {
			n := s.metric(t, expiredBy)
			if n == 0 {
				t.Fatalf("instance %d expired nothing: the work was not shared", i)
			}
			total += n
		}
		if total != float64(len(cs)) {
			t.Fatalf("instances committed %v expiries between them, want %d", total, len(cs))
		}
	})
}

// TestInstanceKilledMidStorm: one of three instances is killed with
// SIGKILL as the storm drains; the others take its shards when its leases
// end, and every coupon is expired exactly once, none early.
func TestInstanceKilledMidStorm(t *testing.T) {
	onShared(t, func(t *testing.T, be backend) { killOneMidStorm(t, be.store(t), stormCoupons, be.stormLead) })
}

// killOneMidStorm starts three instances on the store at db, seeds a
// storm of n coupons due lead from now, kills one of the instances with
// SIGKILL once the storm drains, and checks that every coupon is expired
// exactly once, none early, and that the storm was still draining a
// second after the kill.
func killOneMidStorm(t *testing.T, db string, n int, lead time.Duration) {
	ss := startShared(t, db, 3)
	cs := seedStorm(t, ss[0], n, lead)
	waitFirstExpiry(t, ss)
	if err := ss[2].cmd.Process.Kill(); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	killed := time.Now()
	ss[2].cmd.Wait()
	waitAllExpired(t, ss[0], len(cs))
	checkAllExpiredOnce(t, ss[0], cs)
	drainedAfter(t, ss[0], killed.Add(time.Second), "the kill")
}

// TestPausedInstanceWritesNothing: an instance stopped with SIGSTOP in
// the middle of a storm, likely inside a drain's transaction, stays
// stopped well past its leases while the others take its shards and
// expire everything it does not hold locked; once resumed, it commits
// nothing it began under its stale leases, and every coupon is expired
// exactly once.
//
// A batch's events carry the time the batch began, and the feed is in
// commit order: a stale batch committed on waking would show as events
// from before the pause, after events the others wrote once its leases
// had passed to them.
func TestPausedInstanceWritesNothing(t *testing.T) {
	onShared(t, func(t *testing.T, be backend) {
		const batch = 50
		ss := startShared(t, be.store(t), 3, "--batch-size", strconv.Itoa(batch))
		cs := seedStorm(t, ss[0], stormCoupons, be.stormLead)
		waitFirstExpiry(t, ss)
		paused := ss[2]
		stopped := time.Now()
		if err := paused.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatalf("SIGSTOP: %v", err)
		}
		// The others take its shards and expire all but what its batch in
		// flight holds locked.
		deadline := time.Now().Add(3 * time.Minute)
		expired := follow("coupon.expired")
		for len(expired.read(t, ss[0])) < len(cs)-batch {
			if time.Now().After(deadline) {
				t.Fatalf("the others did not take the paused instance's shards in three minutes")
			}
			time.Sleep(500 * time.Millisecond)
		}
		if err := paused.cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatalf("SIGCONT: %v", err)
		}
		waitAllExpired(t, ss[0], len(cs))
		checkAllExpiredOnce(t, ss[0], cs)
		drainedAfter(t, ss[0], stopped.Add(time.Second), "the pause")
		passed := stopped.Add(3 * time.Second) // its 2s leases had passed on
		var latest time.Time
		for _, e := range ss[0].feed(t, "coupon.expired") {
			if e.Time.Before(stopped) && latest.After(passed) {
				t.Fatalf("%s expired by a batch begun at %s, before the pause, committed after one begun at %s, once its leases had passed on: a stale write",
					e.Subject, e.Time.Format(time.RFC3339Nano), latest.Format(time.RFC3339Nano))
			}
			if e.Time.After(latest) {
				latest = e.Time
			}
		}
	})
}
