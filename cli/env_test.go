package cli

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestReadsEnv: a flag reads the environment only if its help names its
// own variable.
func TestReadsEnv(t *testing.T) {
	for _, c := range []struct {
		name, usage string
		want        bool
	}{
		{"store", "store URL (LAPSE_STORE)", true},
		{"sink", "a sink; repeatable (LAPSE_SINK, space-separated)", true},
		{"reminders", "lead times (LAPSE_REMINDERS; default none)", true},
		{"repair", "repair what each reconciliation finds (LAPSE_REPAIR)", true},
		{"repair", "repair the drift found", false},
		{"dry-run", "change nothing", false},
		{"sink", "signing secret, see (LAPSE_SINK_SECRET)", false},
		{"store", "", false},
	} {
		f := &flag.Flag{Name: c.name, Usage: c.usage}
		if got := readsEnv(f); got != c.want {
			t.Errorf("readsEnv(--%s %q) = %t, want %t", c.name, c.usage, got, c.want)
		}
	}
}

// TestOperatorCommandsIgnoreServeVariables: the variables of lapse
// serve's flags, and any LAPSE_<FLAG> of an operator command's action
// flags, change nothing an operator command does: with LAPSE_REPAIR,
// LAPSE_DRY_RUN, LAPSE_REASON and LAPSE_WAIT set, reconcile only checks
// and void starts the void it was told, with no reason; LAPSE_URL and
// LAPSE_TOKEN, which their help names, still say where and as whom.
func TestOperatorCommandsIgnoreServeVariables(t *testing.T) {
	type request struct{ method, path, body, auth string }
	var (
		mu   sync.Mutex
		seen []request
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, request{r.Method, r.URL.Path, string(body), r.Header.Get("Authorization")})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/operations" {
			w.WriteHeader(http.StatusAccepted)
			io.WriteString(w, `{"id":"op_1","kind":"void","state":"running","target":{"template_id":"tpl_1"},"counts":{"skipped":{}},"progress":{"done":0,"total":3}}`)
			return
		}
		io.WriteString(w, `{"drift":[],"counts":{},"repaired":0}`)
	}))
	defer srv.Close()
	for name, value := range map[string]string{"LAPSE_REPAIR": "true", "LAPSE_DRY_RUN": "true", "LAPSE_REASON": "leaked",
		"LAPSE_WAIT": "true", "LAPSE_TEMPLATE": "tpl_env", "LAPSE_URL": srv.URL, "LAPSE_TOKEN": "lapse_secret"} {
		t.Setenv(name, value)
	}
	for _, args := range [][]string{{"reconcile"}, {"void", "--template", "tpl_1"}} {
		var out bytes.Buffer
		if err := Run(context.Background(), args, &out, &out); err != nil {
			t.Fatalf("lapse %v: %v\n%s", args, err, out.String())
		}
	}
	want := []request{
		{http.MethodGet, "/v1/reconcile", "", "Bearer lapse_secret"},
		{http.MethodPost, "/v1/operations", `{"kind":"void","template_id":"tpl_1"}`, "Bearer lapse_secret"},
	}
	if len(seen) != len(want) {
		t.Fatalf("requests: got %+v, want %+v", seen, want)
	}
	for i, got := range seen {
		got.body = strings.TrimSpace(got.body)
		if got != want[i] {
			t.Fatalf("request %d: got %+v, want %+v", i, got, want[i])
		}
	}
}
