package outbox_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

func TestSign(t *testing.T) {
	// echo -n '1700000000.{"a":1}' | openssl dgst -sha256 -hmac secret
	got := outbox.Sign([]byte("secret"), time.Unix(1700000000, 0), []byte(`{"a":1}`))
	want := "t=1700000000,v1=49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686"
	if got != want {
		t.Fatalf("Sign: got %s, want %s", got, want)
	}
}

// TestWebhookSecretSignature: the test vector every Standard Webhooks
// library checks (libraries/go/webhook_test.go TestWebhookSign).
func TestWebhookSecretSignature(t *testing.T) {
	s, err := outbox.ParseWebhookSecret(outboxtest.TestSecret)
	if err != nil {
		t.Fatalf("ParseWebhookSecret: %v", err)
	}
	got := s.Signature("msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("Signature: got %s, want %s", got, want)
	}
}

func TestParseWebhookSecret(t *testing.T) {
	key := func(n int) string { return "whsec_" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0xA5}, n)) }
	cases := []struct {
		secret        string
		signs, legacy bool
	}{
		{"", false, false},
		{outboxtest.TestSecret, true, false},
		{key(24), true, false},
		{key(64), true, false},
		{"an-old-S3CR3T", true, true},
		{"whsec", true, true},
	}
	for _, c := range cases {
		s, err := outbox.ParseWebhookSecret(c.secret)
		if err != nil || s.Signs() != c.signs || s.Legacy() != c.legacy {
			t.Fatalf("ParseWebhookSecret(%q): got signs %t, legacy %t, %v; want %t, %t", c.secret, s.Signs(), s.Legacy(), err, c.signs, c.legacy)
		}
		var log bytes.Buffer
		slog.New(slog.NewTextHandler(&log, nil)).Info("m", slog.Any("secret", s))
		if shown := fmt.Sprintf("%v %+v %s", s, s, &log); c.secret != "" && strings.Contains(shown, strings.TrimPrefix(c.secret, "whsec_")) {
			t.Fatalf("secret %q printed: %s", c.secret, shown)
		}
	}
	for _, c := range []struct{ secret, want string }{
		{"whsec_S3CR3T!!", "not standard base64"},
		{strings.TrimRight(key(25), "="), "not standard base64"},
		{key(23), "got 23 bytes"},
		{key(65), "got 65 bytes"},
	} {
		_, err := outbox.ParseWebhookSecret(c.secret)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.secret[6:]) {
			t.Fatalf("ParseWebhookSecret(%q): got %v, want an error about %q that does not show the secret", c.secret, err, c.want)
		}
	}
}

// TestWebhookIDWithDot: an event whose ID holds a '.' (a late payment's
// holds its payment's ID) is sent under a webhook-id of msg_ and hex, so
// that the signed "<id>.<timestamp>.<body>" stays unambiguous.
func TestWebhookIDWithDot(t *testing.T) {
	rc := outboxtest.NewReceiver(t, outboxtest.TestSecret)
	w := outbox.NewWebhook(outbox.WebhookConfig{URL: rc.URL, Secret: rc.WebhookSecret(), Now: time.Now})
	defer w.Close()
	evs := []storetype.Event{{ID: "evt_late_ord_1_pay.1700000000", Type: store.EventOrderLatePayment, Subject: "ord_1", Time: t0, Data: []byte("{}")}}
	for range 2 {
		if n, err := w.Deliver(context.Background(), evs); n != 1 || err != nil {
			t.Fatalf("Deliver: got %d, %v; want 1 delivered", n, err)
		}
	}
	ids := rc.IDs()
	if len(ids) != 2 || !strings.HasPrefix(ids[0], "msg_") || len(ids[0]) != len("msg_")+32 || ids[1] != ids[0] {
		t.Fatalf("webhook-ids: got %q, want msg_ and 32 hex digits, twice the same", ids)
	}
}
