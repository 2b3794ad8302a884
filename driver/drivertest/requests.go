package drivertest

import (
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// requestTests test the idempotency rows: record, finish, forget if
// expired, prune oldest first.
var requestTests = []test{
	{"PutFinish", testRequestPutFinish},
	{"Forget", testRequestForget},
	{"Prune", testPruneRequests},
}

// putRequest records a request in flight under key, created at created.
func (f *fixture) putRequest(key string, created time.Time) {
	f.t.Helper()
	f.tx(func(tx driver.Executor) {
		ok(f.t, "PutRequest", tx.PutRequest(f.ctx, driver.RequestParams{Key: key,
			Request: driver.Request{Fingerprint: "fp " + key, Status: driver.InFlight, Body: []byte{}, Created: created}}))
	})
}

// request reads the request under key; ErrNotFound if none.
func (f *fixture) request(key string) (driver.Request, error) {
	f.t.Helper()
	var (
		r   driver.Request
		err error
	)
	f.tx(func(tx driver.Executor) { r, err = tx.Request(f.ctx, key) })
	return r, err
}

// testRequestPutFinish: a request reads back as put, then with the
// status and body FinishRequest stored, its fingerprint and creation
// kept.
func testRequestPutFinish(f *fixture) {
	_, err := f.request("k1")
	notFound(f.t, "Request before", err)
	f.putRequest("k1", t0)
	r, err := f.request("k1")
	ok(f.t, "Request", err)
	want(f.t, "Fingerprint", r.Fingerprint, "fp k1")
	want(f.t, "Status", r.Status, driver.InFlight)
	wantTime(f.t, "Created", r.Created, t0)
	f.tx(func(tx driver.Executor) {
		ok(f.t, "FinishRequest", tx.FinishRequest(f.ctx, driver.RequestParams{Key: "k1",
			Request: driver.Request{Status: driver.RecordedResult, Body: []byte(`{"ok":true}`)}}))
	})
	r, err = f.request("k1")
	ok(f.t, "Request", err)
	want(f.t, "Fingerprint", r.Fingerprint, "fp k1")
	want(f.t, "Status", r.Status, driver.RecordedResult)
	want(f.t, "Body", string(r.Body), `{"ok":true}`)
	wantTime(f.t, "Created", r.Created, t0)
}

// testRequestForget: ForgetRequest deletes a request created at or
// before the time passed, and only then.
func testRequestForget(f *fixture) {
	f.putRequest("k1", t0)
	for _, tc := range []struct {
		before time.Time
		kept   bool
	}{{t0.Add(-time.Millisecond), true}, {t0, false}} {
		f.tx(func(tx driver.Executor) {
			ok(f.t, "ForgetRequest", tx.ForgetRequest(f.ctx, driver.ForgetRequestParams{Key: "k1", Before: tc.before}))
		})
		_, err := f.request("k1")
		if tc.kept {
			ok(f.t, "Request kept", err)
		} else {
			notFound(f.t, "Request forgotten", err)
		}
	}
}

// testPruneRequests: PruneRequests deletes up to Limit requests created
// at or before Before, oldest first, and counts them.
func testPruneRequests(f *fixture) {
	f.putRequest("k3", t0.Add(3*time.Hour))
	f.putRequest("k1", t0.Add(1*time.Hour))
	f.putRequest("k2", t0.Add(2*time.Hour))
	f.putRequest("k4", t0.Add(4*time.Hour))
	for _, tc := range []struct {
		before time.Time
		limit  int
		pruned int64
		gone   []string
	}{
		{t0, 10, 0, nil},
		{t0.Add(3 * time.Hour), 2, 2, []string{"k1", "k2"}},
		{t0.Add(3 * time.Hour), 2, 1, []string{"k3"}},
	} {
		got := read(f, "PruneRequests", func(tx driver.Executor) (int64, error) {
			return tx.PruneRequests(f.ctx, storetype.PruneRequestsParams{Before: tc.before, Limit: tc.limit})
		})
		want(f.t, "PruneRequests", got, tc.pruned)
		for _, k := range tc.gone {
			_, err := f.request(k)
			notFound(f.t, "pruned "+k, err)
		}
	}
	_, err := f.request("k4")
	ok(f.t, "k4 kept", err)
}
