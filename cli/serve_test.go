package cli

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestServeCapsLockTTL: --max-lock-ttl, or LAPSE_MAX_LOCK_TTL, reaches the
// API: a lock asking more is refused, one asking that much is taken.
func TestServeCapsLockTTL(t *testing.T) {
	for _, how := range []string{"flag", "env"} {
		t.Run(how, func(t *testing.T) {
			var s *served
			if how == "flag" {
				s = startServe(t, "--max-lock-ttl", "2m")
			} else {
				t.Setenv("LAPSE_MAX_LOCK_TTL", "2m")
				s = startServe(t)
			}
			_, body := s.call(t, http.MethodPost, "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1h"}}`)
			var tpl struct{ ID string }
			if err := json.Unmarshal([]byte(body), &tpl); err != nil || tpl.ID == "" {
				t.Fatalf("create template: %s (%v)", body, err)
			}
			_, body = s.call(t, http.MethodPost, "/v1/users/u1/coupons", `{"template_id": "`+tpl.ID+`"}`)
			var c struct{ ID string }
			if err := json.Unmarshal([]byte(body), &c); err != nil || c.ID == "" {
				t.Fatalf("claim: %s (%v)", body, err)
			}
			lock := "/v1/coupons/" + c.ID + "/lock"
			if status, body := s.call(t, http.MethodPost, lock, `{"order_id": "o1", "ttl": "2m1s"}`); status != http.StatusUnprocessableEntity || !strings.Contains(body, "ttl: at most 2m0s") {
				t.Fatalf("ttl above --max-lock-ttl: got %d %s, want 422 naming ttl and its maximum", status, body)
			}
			if status, body := s.call(t, http.MethodPost, lock, `{"order_id": "o1", "ttl": "2m"}`); status != http.StatusOK {
				t.Fatalf("ttl at --max-lock-ttl: got %d %s, want 200", status, body)
			}
		})
	}
}
