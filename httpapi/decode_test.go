package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
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

// validAsInput is refusedAsInput of err, a decoding's error, or, where
// the decoding passed, of validate's, which checks what it decoded as the
// store does. It returns the error it checked.
func validAsInput(t *testing.T, input string, err error, validate func() error) error {
	t.Helper()
	if err == nil {
		err = validate()
	}
	refusedAsInput(t, input, err)
	return err
}

func FuzzDecodeTemplate(f *testing.F) {
	f.Add([]byte(hourTemplate))
	f.Fuzz(func(t *testing.T, body []byte) {
		tp, err := decodeTemplate(body, t0)
		err = validAsInput(t, string(body), err, store.CreateTemplateParams{Template: tp, Now: t0}.Validate)
		if err == nil && (!wholeMs(tp.EndsAt) || (!tp.StartsAt.Equal(t0) && !wholeMs(tp.StartsAt))) {
			t.Fatalf("%q: accepted times finer than a millisecond: %+v", body, tp)
		}
	})
}

func FuzzDecodeTemplateChange(f *testing.F) {
	f.Add([]byte(`{"name": "¥30 off", "value": 3000, "total": 500, "reminders": ["24h", "30m"]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := decodeTemplateChange(body)
		err = validAsInput(t, string(body), err, store.ChangeTemplateParams{ID: "tpl_1", Change: c, Now: t0}.Validate)
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
		validAsInput(t, string(body), err, store.CloseTemplateParams{ID: "tpl_1", Reason: reason, Now: t0}.Validate)
	})
}

func FuzzDecodeOperation(f *testing.F) {
	f.Add([]byte(`{"kind": "void", "template_id": "tpl_1", "reason": "leaked", "dry_run": true}`))
	f.Add([]byte(`{"kind": "extend", "coupon_ids": ["cpn_1", "cpn_2"], "by": "72h"}`))
	f.Add([]byte(`{"kind": "void", "user_ids": ["u1", "u2"], "reason": "fraud"}`))
	f.Add([]byte(`{"kind": "extend", "template_id": "tpl_1", "expires_at": "2030-01-01T00:00:00.000Z"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, _, err := decodeOperation(body, t0)
		err = validAsInput(t, string(body), err, p.Validate)
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
		for _, kind := range []storetype.OperationKind{storetype.OperationVoid, storetype.OperationExtend} {
			p, _, err := decodeTemplateOperation(kind, "tpl_1", body, t0)
			validAsInput(t, string(body), err, p.Validate)
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
	f.Add([]byte("order=newest&after=tpl_01"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw))
		p, err := parseTemplatesQuery(q)
		refusedAsInput(t, string(raw), err)
		if err == nil && (p.Limit < 1 || p.Limit > maxTemplatesLimit || (p.After != "" && input.ID("after", p.After) != nil) ||
			p.Newest != (q.Get("order") == "newest")) {
			t.Fatalf("%q: accepted %+v", raw, p)
		}
	})
}

func FuzzDecodeOperationsQuery(f *testing.F) {
	f.Add([]byte("state=running&limit=20"))
	f.Add([]byte("state=paused&after=op_01"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw))
		p, err := parseOperationsQuery(q)
		refusedAsInput(t, string(raw), err)
		if err == nil && (p.Limit < 1 || p.Limit > maxOperationsLimit || (p.After != "" && input.ID("after", p.After) != nil) ||
			!slices.Contains([]string{"", "running", "done", "cancelled"}, p.State)) {
			t.Fatalf("%q: accepted %+v", raw, p)
		}
	})
}

func FuzzDecodeClaim(f *testing.F) {
	f.Add([]byte(`{"template_id": "tpl_1"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		id, err := decodeClaim(body)
		validAsInput(t, string(body), err, store.ClaimParams{TemplateID: id, UserID: "u1"}.Validate)
	})
}

func FuzzDecodeTransition(f *testing.F) {
	f.Add([]byte(`{"order_id": "o1", "ttl": "15m"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, act := range []coupon.Action{coupon.Lock, coupon.Unlock, coupon.Redeem, coupon.Refund, coupon.Void} {
			p, err := decodeTransition(act, body, DefaultMaxLockTTL)
			p.CouponID = "c1"
			err = validAsInput(t, act.String()+" "+string(body), err, p.Validate)
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
	f.Add([]byte("after=latest"))
	f.Add([]byte("before=latest&limit=25&subject=cpn_1"))
	f.Add([]byte("before=7&after=3"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw)) // as Request.URL.Query does, pairs that fail to parse are dropped
		p, err := parseEventsQuery(q)
		refusedAsInput(t, string(raw), err)
		if err == nil && (p.After < 0 || p.Before < 0 || p.Backward != q.Has("before") || (p.Backward && q.Has("after")) ||
			p.Latest != (q.Get("before") == latest || !q.Has("before") && q.Get("after") == latest) ||
			p.Limit < 1 || p.Limit > maxEventsLimit ||
			p.Type != q.Get("type") || p.Subject != q.Get("subject") ||
			input.ID("type", p.Type) == nil != q.Has("type") || input.ID("subject", p.Subject) == nil != q.Has("subject")) {
			t.Fatalf("%q: accepted %+v", raw, p)
		}
	})
}

func FuzzDecodeForecastQuery(f *testing.F) {
	f.Add([]byte("minutes=60"))
	f.Add([]byte("minutes=1441"))
	f.Add([]byte("template=tpl_1&minutes=30"))
	f.Add([]byte("template="))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw))
		fq, err := parseForecastQuery(q)
		refusedAsInput(t, string(raw), err)
		if err == nil && (fq.minutes < 1 || fq.minutes > defaultForecastSpan ||
			fq.template != q.Get("template") || input.ID("template", fq.template) == nil != q.Has("template")) {
			t.Fatalf("%q: accepted %+v", raw, fq)
		}
	})
}

func FuzzDecodeWalletQuery(f *testing.F) {
	f.Add([]byte("status=unused&include=archived&after=cpn_1&limit=100"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		q, _ := url.ParseQuery(string(raw))
		p, err := parseWalletQuery(q)
		p.UserID = "u1"
		err = validAsInput(t, string(raw), err, p.Validate)
		if err == nil && ((p.Status != 0 && p.Status.String() != q.Get("status")) || (p.Status == 0) == q.Has("status") ||
			p.Archived != (q.Get("include") == "archived") || p.After != q.Get("after") ||
			p.Limit < 1 || p.Limit > storetype.MaxWalletPage) {
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
		{`{"order_id": "o1", "order_id": "o1"}`, false},
		{"{\"order_id\": \"o\xff\"}", false},
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

// checkIssueUsers decodes body with decode, a user list decoder, and fails
// t unless it is refused as input or the list it accepts is non-empty,
// holds only IDs the input rules accept and survives a round trip through
// encode and decode.
func checkIssueUsers(t *testing.T, body []byte, encode func([]string) []byte, decode func(io.Reader, func(string) error) error) {
	t.Helper()
	users, err := decodeUsers(decode, body)
	refusedAsInput(t, string(body), err)
	if err != nil {
		return
	}
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
	f.Fuzz(func(t *testing.T, body []byte) { checkIssueUsers(t, body, encode, decodeIssueJSON) })
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
	f.Fuzz(func(t *testing.T, body []byte) { checkIssueUsers(t, body, encode, decodeIssueNDJSON) })
}

// TestDecodeJSONHostile (issue 23): what encoding/json lets through is
// refused. A key given twice, at any depth, is 400 malformed (the last
// would win); so is null for a boolean (it would read as false: a
// "dry_run": null would start the real operation); invalid UTF-8 anywhere
// is 422 invalid naming the body and the byte ("w\xff" and "w\xfe" would
// both read as "w\uFFFD": one user).
func TestDecodeJSONHostile(t *testing.T) {
	cases := []struct {
		body, slug, detail string
	}{
		{`{"value": 1, "value": 2}`, "malformed", `json: key "value" given twice`},
		{`{"validity": {"duration": "1h", "duration": "2h"}}`, "malformed", `json: key "validity.duration" given twice`},
		{`{"name": "a", "reminders": ["1h"], "name": "b"}`, "malformed", `json: key "name" given twice`},
		{`{"Name": "a"}`, "malformed", `json: unknown field "Name"`},
		{`{"validity": {"Duration": "1h"}}`, "malformed", `json: unknown field "validity.Duration"`},
		{"{\"name\": \"w\xff\"}", "invalid", "body: must be valid UTF-8: byte 11 is not"},
		{"{\"name\": \"w\xe2\x82\"}", "invalid", "body: must be valid UTF-8: byte 11 is not"},
		{"{\"na\xc0\x80me\": \"w\"}", "invalid", "body: must be valid UTF-8: byte 4 is not"},
		{`{"name": "w\ud800"}`, "invalid", `body: must be valid Unicode: the escape \ud800 at byte 11 is half a surrogate pair`},
		{`{"name": "w\uDC00\ud800"}`, "invalid", `body: must be valid Unicode: the escape \uDC00 at byte 11 is half a surrogate pair`},
		{`{"name": "w\ud800\u0041"}`, "invalid", `body: must be valid Unicode: the escape \ud800 at byte 11 is half a surrogate pair`},
		{`{"name": "w\\ud800", "name": "x"}`, "malformed", `json: key "name" given twice`},
	}
	for _, c := range cases {
		_, err := decodeJSON[templateRequest]([]byte(c.body))
		p := toProblem(err)
		if p.Type != problemPath+c.slug || p.Detail != c.detail {
			t.Fatalf("%q: got %s %q, want %s %q", c.body, p.Type, p.Detail, c.slug, c.detail)
		}
	}
	for _, body := range []string{`{"dry_run": null}`, `{"reason": "r", "dry_run": null}`} {
		_, _, err := decodeTemplateOperation(storetype.OperationVoid, "tpl_1", []byte(body), t0)
		if p := toProblem(err); p.Type != problemPath+"malformed" || p.Detail != "dry_run: cannot take a JSON null: want true or false" {
			t.Fatalf("%q: got %s %q, want malformed naming dry_run", body, p.Type, p.Detail)
		}
	}
	for _, body := range []string{`{"kind": "void", "template_id": "t", "dry_run": null}`} {
		if _, _, err := decodeOperation([]byte(body), t0); slug(err) != "malformed" {
			t.Fatalf("%q: got %v, want malformed", body, err)
		}
	}
	if _, err := decodeArchive([]byte(`{"dry_run": null}`), t0, time.Hour); slug(err) != "malformed" {
		t.Fatalf("archive dry_run null: got %v, want malformed", err)
	}
	if _, err := decodeReconcile([]byte(`{"repair": null}`)); slug(err) != "malformed" {
		t.Fatalf("reconcile repair null: got %v, want malformed", err)
	}
	// A pair of escapes is a character; an escaped backslash no escape.
	for _, body := range []string{`{"name": "\ud83d\ude00"}`, `{"name": "\\ud800"}`, `{"name": "\ufffd"}`} {
		if _, err := decodeJSON[templateRequest]([]byte(body)); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
	}
	// In a stream, the detail names the line, or the byte in the body.
	for body, want := range map[string]string{
		"{\"user_id\": \"a\"}\n{\"user_id\": \"w\\ud800\"}\n": `body (line 2): must be valid Unicode: the escape \ud800 at byte 14 is half a surrogate pair`,
		"{\"user_id\": \"a\"}\n{\"user_id\": \"w\xff\"}\n":    "body: must be valid UTF-8: byte 31 is not",
		"{\"user_ids\": [\"a\", \"w\\udc00\"]}":               `body: must be valid Unicode: the escape \udc00 at byte 21 is half a surrogate pair`,
		"{\"user_ids\": [\"a\", \"w\xfe\"]}":                  "body: must be valid UTF-8: byte 21 is not",
	} {
		decode := decodeIssueJSON
		if strings.Contains(body, "\n") {
			decode = decodeIssueNDJSON
		}
		if _, err := decodeUsers(decode, []byte(body)); slug(err) != "invalid" || toProblem(err).Detail != want {
			t.Fatalf("%q: got %v, want invalid %q", body, err, want)
		}
	}
	// null still stands for absent where a field may be absent.
	if c, err := decodeTemplateChange([]byte(`{"name": null, "reminders": null}`)); err != nil || c.Name != nil || c.Reminders != nil {
		t.Fatalf("change of nulls: got %+v, %v; want none", c, err)
	}
}

// TestMediaTypeCharset (issue 23): a JSON body is read as UTF-8, so a
// Content-Type naming another charset is 400 malformed; utf-8 in any case,
// or none, is taken.
func TestMediaTypeCharset(t *testing.T) {
	for ct, ok := range map[string]bool{
		"application/json":                           true,
		"application/json; charset=utf-8":            true,
		"application/json; charset=UTF-8":            true,
		"application/json; charset=\"utf-8\"":        true,
		"application/json; charset=latin1":           false,
		"application/json; charset=utf8":             false,
		"application/x-ndjson; charset=utf-16":       false,
		"application/problem+json; charset=us-ascii": false,
	} {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Set("Content-Type", ct)
		_, err := mediaType(r, ndjson)
		if (err == nil) != ok || (err != nil && slug(err) != "malformed") {
			t.Fatalf("%q: got %v, want ok %v or malformed", ct, err, ok)
		}
	}
}

// objectKeys counts the keys of every object in the JSON value body,
// walking its tokens with a stack, not as checkJSON does.
func objectKeys(body []byte) (int, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	type level struct{ object, wantKey bool }
	var stack []level
	n := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].object {
			if stack[top].wantKey && tok != json.Delim('}') {
				n++
				stack[top].wantKey = false
				continue
			}
			stack[top].wantKey = true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, level{object: true, wantKey: true})
		case json.Delim('['):
			stack = append(stack, level{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
		}
	}
}

// treeKeys counts the keys of every object in v, as encoding/json keeps
// them: one per name.
func treeKeys(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		n += len(v)
		for _, e := range v {
			n += treeKeys(e)
		}
	case []any:
		for _, e := range v {
			n += treeKeys(e)
		}
	}
	return n
}

// FuzzDecodeJSON: a body decodeJSON accepts is valid UTF-8, gives no key
// twice in one object (as many keys in its tokens as encoding/json keeps),
// at any depth, and reads as no more U+FFFD than it spells (no bad byte
// nor half a surrogate pair read as one); what it refuses is malformed or
// invalid.
func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1}], "coupon_ids": ["c"]}`))
	f.Add([]byte(`{"user_id": "u1", "items": [{"sku": "a", "sku": "a", "qty": 1}]}`))
	f.Add([]byte("{\"user_id\": \"w\xff\"}"))
	f.Add([]byte(`{"timeout": null, "deadline": null, "coupon_ids": null}`))
	f.Add([]byte(`{"user_id": "w\ud800", "coupon_ids": ["\ud83d\ude00", "\ufffd"]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := decodeJSON[createOrderRequest](body)
		refusedAsInput(t, string(body), err)
		if err != nil || len(bytes.TrimSpace(body)) == 0 {
			return
		}
		if !utf8.Valid(body) {
			t.Fatalf("%q: accepted invalid UTF-8", body)
		}
		var tree any
		if err := json.Unmarshal(body, &tree); err != nil {
			t.Fatalf("%q: accepted, but: %v", body, err)
		}
		if n, err := objectKeys(body); err != nil || n != treeKeys(tree) {
			t.Fatalf("%q: accepted %d keys of which encoding/json keeps %d (%v): a key given twice", body, n, treeKeys(tree), err)
		}
		spelled := bytes.Count(body, []byte("\uFFFD")) + bytes.Count(bytes.ToLower(body), []byte(`\ufffd`))
		if got := strings.Count(string(mustJSON(tree)), "\uFFFD"); got > spelled {
			t.Fatalf("%q: accepted, read as %d U+FFFD, spelled %d", body, got, spelled)
		}
	})
}

// FuzzUTF8Reader: utf8Reader, read in pieces of any size, fails exactly
// when its body is not valid UTF-8, naming the first bad byte as
// validUTF8 does for the whole body, and passes every byte on otherwise.
func FuzzUTF8Reader(f *testing.F) {
	f.Add([]byte("w\xe2\x82\xac\xf0\x9f\x98\x80"), uint8(1))
	f.Add([]byte("w\xe2\x82"), uint8(2))
	f.Add([]byte("w\xff\xfe"), uint8(3))
	f.Fuzz(func(t *testing.T, body []byte, piece uint8) {
		u := &utf8Reader{r: iotest.OneByteReader(bytes.NewReader(body))}
		if piece > 1 {
			u.r = &pieces{b: body, n: int(piece)}
		}
		got, err := io.ReadAll(u)
		want := validUTF8(body, 0)
		switch {
		case want == nil && (err != nil || !bytes.Equal(got, body)):
			t.Fatalf("%q in pieces of %d: got %q, %v; want it all", body, piece, got, err)
		case want != nil && (err == nil || err.Error() != want.Error()):
			t.Fatalf("%q in pieces of %d: got %v, want %v", body, piece, err, want)
		}
	})
}

// pieces reads b n bytes at a time.
type pieces struct {
	b []byte
	n int
}

func (p *pieces) Read(out []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, io.EOF
	}
	n := copy(out[:min(len(out), p.n)], p.b)
	p.b = p.b[n:]
	return n, nil
}
