package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store/backendtest"
)

// step is one request of a parity scenario. Every store gets the same
// steps in the same order; {name} in path, body and header values stands
// for what an earlier step saved under name on that store.
type step struct {
	method, path, body string
	// header holds key, value pairs. A body goes as application/json
	// unless header sets Content-Type.
	header []string
	// want is the status expected and slug the problem's, "" for a
	// success. want 0 accepts any status below 500 (a fuzz seed's).
	want int
	slug string
	// save keeps the answer's top-level string field save[name] as {name}.
	save map[string]string
	// keep keeps the whole answer's body under a name; same requires the
	// body to be byte for byte the one kept under its name: what a refused
	// request did not change.
	keep, same string
	// check, if set, tests the decoded answer on each store.
	check func(v map[string]any) error
	// concurrent sends the request that many times at once: every answer
	// must be the same, byte for byte but for a problem's request_id.
	concurrent int
}

// outcome is one store's answer to a step, as compared across stores.
type outcome struct {
	status int
	slug   string
	shape  string
}

// runParity runs steps on a fresh server over each backend and requires
// each step's expected status and slug of every store, and the same
// status, slug and body shape from all of them.
func runParity(t *testing.T, bs []backendtest.Backend, steps []step) {
	t.Helper()
	results := make([][]outcome, len(bs))
	took := make([]string, len(bs))
	for i, b := range bs {
		start := time.Now()
		e := serveStore(t, b.Open(t))
		results[i], _ = runSteps(t, b.Name, e, steps)
		took[i] = fmt.Sprintf("%s %v", b.Name, time.Since(start).Round(time.Millisecond))
	}
	t.Logf("%d steps: %s", len(steps), strings.Join(took, ", "))
	for i := 1; i < len(bs); i++ {
		for j, s := range steps {
			a, b := results[0][j], results[i][j]
			if a.status != b.status || a.slug != b.slug || a.shape != b.shape {
				t.Errorf("step %d %s %s: %s and %s differ:\n%s: %d %s\n%s: %d %s",
					j, s.method, short(s.path), bs[0].Name, bs[i].Name,
					bs[0].Name, a.status, a.shape, bs[i].Name, b.status, b.shape)
			}
		}
	}
}

// runSteps runs steps on e, checking each one's expectations, and
// returns what e answered and what the steps saved.
func runSteps(t *testing.T, name string, e *env, steps []step) ([]outcome, map[string]string) {
	t.Helper()
	vars := map[string]string{}
	kept := map[string][]byte{}
	norm := newNormaliser()
	out := make([]outcome, len(steps))
	for j, s := range steps {
		expand := func(v string) string {
			for k, x := range vars {
				v = strings.ReplaceAll(v, "{"+k+"}", x)
			}
			return v
		}
		header := make([]string, len(s.header))
		for k, h := range s.header {
			header[k] = expand(h)
		}
		if s.body != "" && !hasHeader(header, "Content-Type") {
			header = append(header, "Content-Type", "application/json")
		}
		path, body := expand(s.path), expand(s.body)
		where := fmt.Sprintf("%s: step %d %s %s", name, j, s.method, short(path))
		res := sendAll(t, e.url, s.method, path, body, header, max(1, s.concurrent))
		for _, r := range res[1:] {
			if r.status != res[0].status || !bytes.Equal(withoutRequestID(r.body), withoutRequestID(res[0].body)) {
				t.Errorf("%s: concurrent answers differ: %d %s and %d %s", where, res[0].status, res[0].body, r.status, r.body)
				break
			}
		}
		// Each step a millisecond later: what is made in order sorts in
		// that order on every store (IDs and times lead with the clock).
		e.clock.Add(time.Millisecond)
		r := res[0]
		o := outcome{status: r.status, slug: problemSlug(r), shape: norm.shape(r.body)}
		out[j] = o
		switch {
		case o.status >= 500:
			t.Errorf("%s: got %d %s, never a 5xx", where, o.status, r.body)
			continue
		case s.want != 0 && (o.status != s.want || o.slug != s.slug):
			t.Errorf("%s: got %d %q %s, want %d %q", where, o.status, o.slug, clip(r.body), s.want, s.slug)
			if len(s.save) > 0 {
				t.Fatalf("%s: later steps need what this one saves", where)
			}
			continue
		}
		var v map[string]any
		if o.slug == "" && len(r.body) > 0 {
			if err := json.Unmarshal(r.body, &v); err != nil {
				t.Errorf("%s: decode %s: %v", where, clip(r.body), err)
			}
		}
		for k, field := range s.save {
			id, ok := v[field].(string)
			if !ok {
				t.Fatalf("%s: no string %q in %s", where, field, r.body)
			}
			vars[k] = id
		}
		if s.keep != "" {
			kept[s.keep] = r.body
		}
		if s.same != "" && !bytes.Equal(r.body, kept[s.same]) {
			t.Errorf("%s: got %s, want it unchanged: %s", where, r.body, kept[s.same])
		}
		if s.check != nil {
			if err := s.check(v); err != nil {
				t.Errorf("%s: %v in %s", where, err, r.body)
			}
		}
	}
	return out, vars
}

// sendAll sends n copies of a request at once and returns the answers.
func sendAll(t *testing.T, base, method, path, body string, header []string, n int) []response {
	t.Helper()
	res := make([]response, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{}) // all at once, not one by one as started
	for i := range n {
		wg.Go(func() {
			<-start
			res[i], errs[i] = send(base, method, path, body, header)
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("%s %s: %v", method, short(path), err)
		}
	}
	return res
}

func hasHeader(header []string, key string) bool {
	for i := 0; i+1 < len(header); i += 2 {
		if http.CanonicalHeaderKey(header[i]) == http.CanonicalHeaderKey(key) {
			return true
		}
	}
	return false
}

// problemSlug is the slug of a problem answer, "" for any other.
func problemSlug(r response) string {
	if r.header.Get("Content-Type") != "application/problem+json" {
		return ""
	}
	var p problem
	if err := json.Unmarshal(r.body, &p); err != nil || !strings.HasPrefix(p.Type, "/problems/") {
		return "(not a problem document: " + string(clip(r.body)) + ")"
	}
	return strings.TrimPrefix(p.Type, "/problems/")
}

// Strings a normaliser replaces: the IDs lapse makes, and its times.
var (
	madeID   = regexp.MustCompile(`^(tpl|cpn|ord|evt|evt_late)_[0-9a-hjkmnp-tv-z]{26}$`)
	timeText = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)
)

// normaliser turns one store's answers into their shape: the same JSON
// with each ID lapse made replaced by its kind and the order in which the
// store first answered it (<cpn#2>), each time by <time>, and the event
// feed's cursor by <cursor>, a problem's request_id by <request_id>. Keys, types and every other value stay, so
// two stores' shapes are equal when they answered alike.
type normaliser struct {
	ids map[string]string
	n   map[string]int
}

func newNormaliser() *normaliser {
	return &normaliser{ids: map[string]string{}, n: map[string]int{}}
}

// shape returns body's shape, or body itself if it is not JSON.
func (n *normaliser) shape(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "(not JSON) " + string(body)
	}
	b, err := json.Marshal(n.walk("", v))
	if err != nil {
		return "(cannot encode) " + err.Error()
	}
	return string(b)
}

func (n *normaliser) walk(key string, v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = n.walk(k, x)
		}
		return v
	case []any:
		for i, x := range v {
			v[i] = n.walk(key, x)
		}
		return v
	case string:
		switch {
		case key == "next":
			return "<cursor>"
		case key == "request_id":
			return "<request_id>"
		case timeText.MatchString(v):
			return "<time>"
		case madeID.MatchString(v):
			if id, ok := n.ids[v]; ok {
				return id
			}
			kind := v[:3]
			n.n[kind]++
			n.ids[v] = fmt.Sprintf("<%s#%d>", kind, n.n[kind])
			return n.ids[v]
		}
	}
	return v
}

// short cuts a long path for messages.
func short(s string) string {
	if len(s) > 80 {
		return fmt.Sprintf("%s…(%d bytes)", s[:60], len(s))
	}
	return s
}

// clip cuts a long body for messages.
func clip(b []byte) []byte {
	if len(b) > 300 {
		return append(b[:300:300], "…"...)
	}
	return b
}
