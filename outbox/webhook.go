package outbox

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/store"
)

// SignatureHeader carries a webhook's signature:
//
//	Lapse-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>
//
// A receiver recomputes v1 over the t it was given and the raw body, and
// rejects a t too far from its own clock so that a captured request cannot
// be replayed later.
const SignatureHeader = "Lapse-Signature"

// Sign returns the value of SignatureHeader for body sent at t.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(ts))
	mac.Write([]byte("."))
	mac.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// Webhook POSTs events as CloudEvents: one per request in structured mode
// (Batch 1), or up to Batch per request as a JSON array in batched mode.
// A 2xx answer acknowledges the request's events; anything else, a
// redirect included, fails them.
type Webhook struct {
	url    string
	batch  int
	secret []byte
	now    func() time.Time
	client *http.Client
}

// WebhookConfig sets up a Webhook. URL and Now are required.
type WebhookConfig struct {
	URL string
	// Batch is how many events one request carries; 0 or 1 is structured
	// mode, more is batched mode.
	Batch int
	// Secret signs each request; empty sends no signature.
	Secret []byte
	// Timeout bounds each request; 0 means 10s.
	Timeout time.Duration
	// Now stamps the signature.
	Now func() time.Time
}

// NewWebhook returns a Webhook for cfg.
func NewWebhook(cfg WebhookConfig) *Webhook {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	return &Webhook{
		url:    cfg.URL,
		batch:  max(cfg.Batch, 1),
		secret: cfg.Secret,
		now:    cfg.Now,
		client: &http.Client{
			Timeout:       cfg.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// Deliver POSTs evs a request at a time, in order.
func (w *Webhook) Deliver(ctx context.Context, evs []store.Event) (int, error) {
	done := 0
	for done < len(evs) {
		n := min(w.batch, len(evs)-done)
		if err := w.post(ctx, evs[done:done+n]); err != nil {
			return done, err
		}
		done += n
	}
	return done, nil
}

func (w *Webhook) post(ctx context.Context, evs []store.Event) error {
	body, ctype, err := w.encode(evs)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("User-Agent", "lapse")
	if len(w.secret) > 0 {
		req.Header.Set(SignatureHeader, Sign(w.secret, w.now(), body))
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20)) // lets the connection be reused
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("webhook: %s: %q", resp.Status, snippet)
	}
	return nil
}

func (w *Webhook) encode(evs []store.Event) ([]byte, string, error) {
	if w.batch == 1 {
		b, err := Encode(evs[0])
		return b, ContentType, err
	}
	b, err := EncodeBatch(evs)
	return b, BatchContentType, err
}

// Close releases idle connections.
func (w *Webhook) Close() error {
	w.client.CloseIdleConnections()
	return nil
}
