package outboxtest

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/lapsehq/lapse/outbox"
)

// TestSecret is a Standard Webhooks secret for tests: the one of the
// specification's test vectors.
const TestSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// otherSecret is a secret lapse never signs with in tests: a request it
// verifies was not signed by lapse.
const otherSecret = "whsec_bm90IHRoZSBzZWNyZXQgbGFwc2Ugc2lnbnMgd2l0aA=="

// tolerance is how far a request's webhook-timestamp may be from the
// receiver's clock, as the official library allows.
const tolerance = 5 * time.Minute

// plainID matches the event IDs a webhook-id repeats.
var plainID = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// verify checks a webhook request's headers as a receiver holding the
// --sink-secret secret would, with the official Standard Webhooks
// library: a webhook-id without '.', a webhook-timestamp within
// tolerance, and, with a secret, a webhook-signature that verifies, that
// no longer does once the body, the id or the timestamp is changed by one
// byte or another secret is used, and the deprecated Lapse-Signature
// header with a secret of earlier releases (not whsec_…) only. Without a
// secret, the request carries no signature.
func verify(secret string, h http.Header, body []byte) error {
	id, ts := h.Get(outbox.HeaderWebhookID), h.Get(outbox.HeaderWebhookTimestamp)
	if id == "" || strings.Contains(id, ".") {
		return fmt.Errorf("webhook-id %q: want one without '.'", id)
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(unix, 0)).Abs() > tolerance {
		return fmt.Errorf("webhook-timestamp %q: want unix seconds within %s of now", ts, tolerance)
	}
	legacy := h.Get(outbox.SignatureHeader)
	if secret == "" {
		if sig := h.Get(outbox.HeaderWebhookSignature); sig != "" || legacy != "" {
			return fmt.Errorf("unsigned sink: got webhook-signature %q, Lapse-Signature %q; want neither", sig, legacy)
		}
		return nil
	}
	wh, err := verifier(secret)
	if err != nil {
		return err
	}
	if err := wh.Verify(body, h); err != nil {
		return fmt.Errorf("webhook-signature %q: %w", h.Get(outbox.HeaderWebhookSignature), err)
	}
	if err := forgeriesRejected(wh, h, body); err != nil {
		return err
	}
	if strings.HasPrefix(secret, "whsec_") {
		if legacy != "" {
			return fmt.Errorf("whsec_ secret: got Lapse-Signature %q, want none", legacy)
		}
		return nil
	}
	if want := outbox.Sign([]byte(secret), time.Unix(unix, 0), body); legacy != want {
		return fmt.Errorf("legacy secret: got Lapse-Signature %q, want %q", legacy, want)
	}
	return nil
}

// verifier is the official library's verifier for secret: a whsec_
// secret's decoded key, or a legacy secret's bytes.
func verifier(secret string) (*standardwebhooks.Webhook, error) {
	if strings.HasPrefix(secret, "whsec_") {
		return standardwebhooks.NewWebhook(secret)
	}
	return standardwebhooks.NewWebhookRaw([]byte(secret))
}

// forgeriesRejected checks that wh, which verified body under h, rejects
// the request once changed, and that a verifier of another secret
// rejects it as sent.
func forgeriesRejected(wh *standardwebhooks.Webhook, h http.Header, body []byte) error {
	tampered := slices.Clone(body)
	tampered[len(tampered)/2] ^= 1
	otherID := h.Clone()
	otherID.Set(outbox.HeaderWebhookID, h.Get(outbox.HeaderWebhookID)+"x")
	otherTime := h.Clone()
	unix, _ := strconv.ParseInt(h.Get(outbox.HeaderWebhookTimestamp), 10, 64)
	otherTime.Set(outbox.HeaderWebhookTimestamp, strconv.FormatInt(unix+1, 10))
	wrong, err := standardwebhooks.NewWebhook(otherSecret)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		what string
		err  error
	}{
		{"a tampered body", wh.Verify(tampered, h)},
		{"another webhook-id", wh.Verify(body, otherID)},
		{"another webhook-timestamp", wh.Verify(body, otherTime)},
		{"another secret", wrong.Verify(body, h)},
	} {
		if !errors.Is(f.err, standardwebhooks.ErrNoMatchingSignature) {
			return fmt.Errorf("%s: got %v, want the signature rejected", f.what, f.err)
		}
	}
	return nil
}
