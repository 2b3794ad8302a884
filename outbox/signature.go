package outbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// The Standard Webhooks headers (https://www.standardwebhooks.com) of
// every webhook request: its id, when it was sent (unix seconds) and, if
// a secret is set, its signature:
//
//	webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>
//
// A receiver checks them with a Standard Webhooks library; see
// WebhookSecret for the key.
const (
	HeaderWebhookID        = "webhook-id"
	HeaderWebhookTimestamp = "webhook-timestamp"
	HeaderWebhookSignature = "webhook-signature"
)

// SignatureHeader carries the signature lapse sent before it followed
// Standard Webhooks, now only when the secret is not a whsec_ one:
//
//	Lapse-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
//
// Deprecated: verify the Standard Webhooks headers (HeaderWebhookSignature)
// instead; the next release no longer sends this header.
const SignatureHeader = "Lapse-Signature"

// Sign returns the value of SignatureHeader for body sent at t.
//
// Deprecated: see SignatureHeader.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(ts))
	mac.Write([]byte("."))
	mac.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// secretPrefix marks a Standard Webhooks secret: whsec_ then the key in
// base64.
const secretPrefix = "whsec_"

// The length of a whsec_ key, as Standard Webhooks asks: 24 to 64 bytes.
const (
	minKey = 24
	maxKey = 64
)

// WebhookSecret is the key webhook requests are signed with (lapse serve
// --sink-secret). The zero value signs nothing. It shows as xxxxx when
// printed.
type WebhookSecret struct {
	key []byte
	// legacy is a secret not given as whsec_…: its bytes are the key,
	// and requests also carry the deprecated SignatureHeader.
	legacy bool
	// text is the secret as given, hidden wherever a sink's error shows.
	text string
}

// ParseWebhookSecret reads a secret as --sink-secret takes it: "" signs
// nothing; whsec_<base64 of 24 to 64 bytes> is a Standard Webhooks secret
// whose decoded bytes are the key; any other text is a secret of earlier
// releases, whose bytes are the key of both the Standard Webhooks
// signature and the deprecated SignatureHeader. Its errors never show the
// secret.
func ParseWebhookSecret(s string) (WebhookSecret, error) {
	if s == "" {
		return WebhookSecret{}, nil
	}
	b64, ok := strings.CutPrefix(s, secretPrefix)
	if !ok {
		return WebhookSecret{key: []byte(s), legacy: true, text: s}, nil
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return WebhookSecret{}, errors.New("whsec_…: the part after whsec_ is not standard base64 (with = padding)")
	}
	if len(key) < minKey || len(key) > maxKey {
		return WebhookSecret{}, fmt.Errorf("whsec_…: want %d to %d random bytes in base64 after whsec_, got %d bytes", minKey, maxKey, len(key))
	}
	return WebhookSecret{key: key, text: s}, nil
}

// Signs reports whether s signs requests.
func (s WebhookSecret) Signs() bool { return len(s.key) > 0 }

// Legacy reports whether s is a secret of earlier releases, not whsec_…,
// so that requests also carry the deprecated SignatureHeader.
func (s WebhookSecret) Legacy() bool { return s.legacy }

// String hides the secret, so that a log or a message printing s shows
// xxxxx.
func (s WebhookSecret) String() string { return redactedMark }

// Signature returns the value of HeaderWebhookSignature for a request
// with webhook-id id, sent at t, carrying body.
func (s WebhookSecret) Signature(id string, t time.Time, body []byte) string {
	mac := hmac.New(sha256.New, s.key)
	mac.Write([]byte(id))
	mac.Write([]byte("."))
	mac.Write([]byte(strconv.FormatInt(t.Unix(), 10)))
	mac.Write([]byte("."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// hidden is the text of s a sink's errors must not show: as given and,
// for a whsec_ secret, its base64 part.
func (s WebhookSecret) hidden() []string {
	if s.text == "" {
		return nil
	}
	if b64, ok := strings.CutPrefix(s.text, secretPrefix); ok {
		return []string{s.text, b64}
	}
	return []string{s.text}
}

// webhookID is the webhook-id of a request carrying evs. It is the same
// whenever the same events are sent again, and differs for other events,
// so that a receiver may deduplicate requests by it, as Standard Webhooks
// suggests: the event's ID for one event whose ID has only letters,
// digits, '_' and '-' (every ID lapse makes, except a late payment's,
// which holds the payment's); otherwise, a batch's events or an ID with
// other characters (a '.' would make the signed "<id>.<timestamp>.<body>"
// ambiguous), msg_ then 32 hex digits of a SHA-256 of the IDs. Not the
// first event's ID for a batch: a batch sent again after a crash may
// start with the same event and hold more.
func webhookID(evs []storetype.Event) string {
	if len(evs) == 1 && plainID(evs[0].ID) {
		return evs[0].ID
	}
	h := sha256.New()
	for _, e := range evs {
		h.Write([]byte(e.ID))
		h.Write([]byte("\n")) // IDs hold no control characters
	}
	return "msg_" + hex.EncodeToString(h.Sum(nil)[:16])
}

// plainID reports whether id is made of letters, digits, '_' and '-'.
func plainID(id string) bool {
	for _, c := range []byte(id) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return id != ""
}
