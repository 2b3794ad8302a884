package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
)

// refusedAsInput fails t unless err is nil or a malformed or invalid
// problem: outside input is never the server's fault.
func refusedAsInput(t *testing.T, input string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	p := toProblem(err)
	if !(p.Status == 400 && p.Type == "/problems/malformed") && !(p.Status == 422 && p.Type == "/problems/invalid") {
		t.Fatalf("%q: got %d %s (%v), want 400 malformed or 422 invalid", input, p.Status, p.Type, err)
	}
}

func FuzzDecodeTemplate(f *testing.F) {
	f.Add([]byte(hourTemplate))
	f.Fuzz(func(t *testing.T, body []byte) {
		tp, err := decodeTemplate(body, t0)
		if err == nil {
			err = store.CreateTemplateParams{Template: tp, Now: t0}.Validate()
		}
		refusedAsInput(t, string(body), err)
		if err == nil && (!wholeMs(tp.EndsAt) || (!tp.StartsAt.Equal(t0) && !wholeMs(tp.StartsAt))) {
			t.Fatalf("%q: accepted times finer than a millisecond: %+v", body, tp)
		}
	})
}

func FuzzDecodeTemplateChange(f *testing.F) {
	f.Add([]byte(`{"name": "¥30 off", "value": 3000, "total": 500, "reminders": ["24h", "30m"]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := decodeTemplateChange(body)
		if err == nil {
			err = store.ChangeTemplateParams{ID: "tpl_1", Change: c, Now: t0}.Validate()
		}
		refusedAsInput(t, string(body), err)
		if err == nil && c.Reminders != nil {
			for _, d := range *c.Reminders {
				if d <= 0 || d%input.Precision != 0 {
					t.Fatalf("%q: accepted reminder %v", body, d)
				}
			}
		}
	})
}

func FuzzDecodeTemplateClose(f *testing.F) {
	f.Add([]byte(`{"reason": "the code leaked"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		reason, err := decodeTemplateClose(body)
		if err == nil {
			err = store.CloseTemplateParams{ID: "tpl_1", Reason: reason, Now: t0}.Validate()
		}
		refusedAsInput(t, string(body), err)
	})
}

func FuzzDecodeOperation(f *testing.F) {
	f.Add([]byte(`{"kind": "void", "template_id": "tpl_1", "reason": "leaked", "dry_run": true}`))
	f.Add([]byte(`{"kind": "extend", "coupon_ids": ["cpn_1", "cpn_2"], "by": "72h"}`))
	f.Add([]byte(`{"kind": "void", "user_ids": ["u1", "u2"], "reason": "fraud"}`))
	f.Add([]byte(`{"kind": "extend", "template_id": "tpl_1", "expires_at": "2030-01-01T00:00:00.000Z"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, _, err := decodeOperation(body, t0)
		if err == nil {
			err = p.Validate()
		}
		refusedAsInput(t, string(body), err)
		if err == nil && (p.Args.By%input.Precision != 0 || !wholeMs(p.Args.ExpiresAt)) {
			t.Fatalf("%q: accepted times finer than a millisecond: %+v", body, p.Args)
		}
	})
}

func FuzzDecodeTemplateOperation(f *testing.F) {
	f.Add([]byte(`{"reason": "leaked", "dry_run": false}`))
	f.Add([]byte(`{"by": "72h"}`))
	f.Add([]byte(`{"expires_at": "2030-01-01T00:00:00Z", "dry_run": true}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, kind := range []store.OperationKind{store.OperationVoid, store.OperationExtend} {
			p, _, err := decodeTemplateOperation(kind, "tpl_1", body, t0)
			if err == nil {
				err = p.Validate()
			}
			refusedAsInput(t, string(body), err)
		}
	})
}

func FuzzDecodeReconcile(f *testing.F) {
	f.Add([]byte(`{"repair": true}`))
	f.Add([]byte(`{"repair": "yes"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := decodeReconcile(body)
		refusedAsInput(t, string(body), err)
	})
}

func FuzzDecodeTemplatesQuery(f *testing.F) {
	f.Add([]byte("after=tpl_01&limit=100"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw))
		p, err := parseTemplatesQuery(q)
		refusedAsInput(t, string(raw), err)
		if err == nil && (p.Limit < 1 || p.Limit > maxTemplatesLimit || (p.After != "" && input.ID("after", p.After) != nil)) {
			t.Fatalf("%q: accepted %+v", raw, p)
		}
	})
}

func FuzzDecodeClaim(f *testing.F) {
	f.Add([]byte(`{"template_id": "tpl_1"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		id, err := decodeClaim(body)
		if err == nil {
			err = store.ClaimParams{TemplateID: id, UserID: "u1"}.Validate()
		}
		refusedAsInput(t, string(body), err)
	})
}

func FuzzDecodeTransition(f *testing.F) {
	f.Add([]byte(`{"order_id": "o1", "ttl": "15m"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, act := range []coupon.Action{coupon.Lock, coupon.Unlock, coupon.Redeem, coupon.Refund, coupon.Void} {
			p, err := decodeTransition(act, body, DefaultMaxLockTTL)
			if err == nil {
				p.CouponID = "c1"
				err = p.Validate()
			}
			refusedAsInput(t, act.String()+" "+string(body), err)
			if err == nil && (p.Action != act || (act == coupon.Lock && p.LockTTL > DefaultMaxLockTTL)) {
				t.Fatalf("%s %q: accepted %+v", act, body, p)
			}
		}
	})
}

func FuzzDecodeEventsQuery(f *testing.F) {
	f.Add([]byte("after=12&limit=100"))
	f.Add([]byte("type=coupon.expired&subject=cpn_1"))
	f.Add([]byte("type=&subject=%00"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw)) // as Request.URL.Query does, pairs that fail to parse are dropped
		p, err := parseEventsQuery(q)
		refusedAsInput(t, string(raw), err)
		if err == nil && (p.After < 0 || p.Limit < 1 || p.Limit > maxEventsLimit ||
			p.Type != q.Get("type") || p.Subject != q.Get("subject") ||
			input.ID("type", p.Type) == nil != q.Has("type") || input.ID("subject", p.Subject) == nil != q.Has("subject")) {
			t.Fatalf("%q: accepted %+v", raw, p)
		}
	})
}

func FuzzDecodeForecastQuery(f *testing.F) {
	f.Add([]byte("minutes=60"))
	f.Add([]byte("minutes=1441"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw))
		n, err := parseForecastQuery(q)
		refusedAsInput(t, string(raw), err)
		if err == nil && (n < 1 || n > defaultForecastSpan) {
			t.Fatalf("%q: accepted %d minutes", raw, n)
		}
	})
}

func FuzzDecodeWalletQuery(f *testing.F) {
	f.Add([]byte("status=unused&include=archived&after=cpn_1&limit=100"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw))
		p, err := parseWalletQuery(q)
		if err == nil {
			p.UserID = "u1"
			err = p.Validate()
		}
		refusedAsInput(t, string(raw), err)
		if err == nil && ((p.Status != 0 && p.Status.String() != q.Get("status")) || (p.Status == 0) == q.Has("status") ||
			p.Archived != (q.Get("include") == "archived") || p.After != q.Get("after") ||
			p.Limit < 1 || p.Limit > store.MaxWalletPage) {
			t.Fatalf("%q: accepted %+v", raw, p)
		}
	})
}

func FuzzDecodeArchive(f *testing.F) {
	f.Add([]byte(`{"before": "2026-10-01T00:00:00Z", "dry_run": true}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := decodeArchive(body, t0, 24*time.Hour)
		refusedAsInput(t, string(body), err)
		if err == nil && (p.Before.After(t0) || p.Before.Before(time.Unix(0, 0)) || !p.Now.Equal(t0)) {
			t.Fatalf("%q: accepted %+v", body, p)
		}
	})
}

func TestDecodeJSONStrict(t *testing.T) {
	cases := []struct {
		body string
		ok   bool
	}{
		{``, true},
		{` `, true},
		{`{}`, true},
		{`{"order_id": "o1"}`, true},
		{` {"order_id": null} `, true},
		{`{"ORDER_ID": "o1"}`, false},
		{`{"order_id": "o1", "order_id2": "o2"}`, false},
		{`{"order_id": "o1"}{}`, false},
		{`{"order_id": "o1"} x`, false},
		{`{"order_id": "o1"`, false},
		{`"o1"`, false},
		{`null`, false},
		{`[{"order_id": "o1"}]`, false},
	}
	for _, c := range cases {
		_, err := decodeJSON[orderRequest]([]byte(c.body))
		if got := err == nil; got != c.ok {
			t.Fatalf("%q: got ok %v (%v), want %v", c.body, got, err, c.ok)
		}
		refusedAsInput(t, c.body, err)
	}
}

// wholeMs reports whether t is a whole number of milliseconds, in UTC.
func wholeMs(t time.Time) bool { return t.Equal(truncate(t)) && t.Location() == time.UTC }

// FuzzPathID: a path ID is answered 422 invalid exactly when it breaks the
// input rules; otherwise the route looks it up (404 here).
func FuzzPathID(f *testing.F) {
	f.Add("cpn_1")
	h, _, _ := fuzzServer(f)
	f.Fuzz(func(t *testing.T, id string) {
		if id == "" || id == "." || id == ".." {
			return // another route, or a redirect to the cleaned path
		}
		rec := serve(h, http.MethodGet, "/v1/coupons/"+url.PathEscape(id), nil)
		want := http.StatusNotFound
		if input.ID("id", id) != nil {
			want = http.StatusUnprocessableEntity
		}
		if rec.Code != want {
			t.Fatalf("%q: got %d %s, want %d", id, rec.Code, rec.Body, want)
		}
	})
}

// FuzzMediaType: a body is read only as JSON, or NDJSON where it is
// allowed, whatever its Content-Type says; anything else is malformed.
func FuzzMediaType(f *testing.F) {
	f.Add("application/json; charset=utf-8")
	f.Fuzz(func(t *testing.T, ct string) {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("Content-Type", ct)
		mt, err := mediaType(r, ndjson)
		refusedAsInput(t, ct, err)
		isJSON := mt == "" || mt == "application/json" || strings.HasSuffix(mt, "+json")
		if err == nil && !isJSON && mt != ndjson {
			t.Fatalf("%q: accepted as %q", ct, mt)
		}
	})
}

func TestFormatDuration(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{72 * time.Hour, "72h"},
		{30 * time.Minute, "30m"},
		{90 * time.Minute, "1h30m"},
		{2 * time.Second, "2s"},
		{time.Hour + 5*time.Second, "1h0m5s"},
		{1500 * time.Millisecond, "1.5s"},
		{10 * time.Minute, "10m"},
	}
	for _, c := range cases {
		if got := formatDuration(c.d); got != c.want {
			t.Fatalf("formatDuration(%v): got %q, want %q", c.d, got, c.want)
		}
		if back, err := time.ParseDuration(formatDuration(c.d)); err != nil || back != c.d {
			t.Fatalf("parse %q: got %v (%v), want %v", formatDuration(c.d), back, err, c.d)
		}
	}
}

// decodeUsers runs decode, a user list decoder, on body and collects the
// users it accepts.
func decodeUsers(decode func(io.Reader, func(string) error) error, body []byte) ([]string, error) {
	var users []string
	err := decode(bytes.NewReader(body), func(u string) error {
		users = append(users, u)
		return nil
	})
	return users, err
}

// checkIssueUsers fails t unless an accepted user list is non-empty, holds
// only IDs the input rules accept and survives a round trip through encode
// and decode.
func checkIssueUsers(t *testing.T, body []byte, users []string, encode func([]string) []byte, decode func(io.Reader, func(string) error) error) {
	t.Helper()
	if len(users) == 0 {
		t.Fatalf("%q: accepted no users", body)
	}
	for _, u := range users {
		if err := input.ID("user", u); err != nil {
			t.Fatalf("%q: accepted %q: %v", body, u, err)
		}
	}
	again, err := decodeUsers(decode, encode(users))
	if err != nil || !slices.Equal(again, users) {
		t.Fatalf("%q: round trip of %q gave %q (%v)", body, users, again, err)
	}
}

func FuzzDecodeIssueJSON(f *testing.F) {
	f.Add([]byte(`{"user_ids": ["u1", "u2"]}`))
	encode := func(users []string) []byte { return mustJSON(map[string][]string{"user_ids": users}) }
	f.Fuzz(func(t *testing.T, body []byte) {
		users, err := decodeUsers(decodeIssueJSON, body)
		refusedAsInput(t, string(body), err)
		if err == nil {
			checkIssueUsers(t, body, users, encode, decodeIssueJSON)
		}
	})
}

func FuzzDecodeIssueNDJSON(f *testing.F) {
	f.Add([]byte("{\"user_id\": \"u1\"}\n{\"user_id\": \"u2\"}\n"))
	encode := func(users []string) []byte {
		var b bytes.Buffer
		for _, u := range users {
			b.Write(mustJSON(map[string]string{"user_id": u}))
			b.WriteByte('\n')
		}
		return b.Bytes()
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		users, err := decodeUsers(decodeIssueNDJSON, body)
		refusedAsInput(t, string(body), err)
		if err == nil {
			checkIssueUsers(t, body, users, encode, decodeIssueNDJSON)
		}
	})
}
