package payhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/lapsehq/lapse/order"
)

func TestPaid(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("order_id") {
		case "paid":
			w.Write([]byte(`{"paid": true, "payment_id": "pay_1"}`))
		case "unpaid":
			w.Write([]byte(`{"paid": false}`))
		case "broken":
			w.Write([]byte(`{"payment_id": "x"}`))
		default:
			http.Error(w, "down", http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	c, err := New(srv.URL+"/check?tenant=a", nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	cases := []struct {
		id      string
		paid    bool
		payment string
		err     bool
	}{
		{"paid", true, "pay_1", false},
		{"unpaid", false, "", false},
		{"broken", false, "", true},
		{"down", false, "", true},
	}
	for _, c2 := range cases {
		paid, id, err := c.Paid(context.Background(), order.Order{ID: c2.id})
		if paid != c2.paid || id != c2.payment || (err != nil) != c2.err {
			t.Fatalf("%s: got (%v, %q, %v), want (%v, %q, error %v)", c2.id, paid, id, err, c2.paid, c2.payment, c2.err)
		}
	}
}

func TestNewRejectsBadURL(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "http://", "::"} {
		if _, err := New(u, nil); err == nil {
			t.Fatalf("New(%q): got nil error", u)
		}
	}
}
