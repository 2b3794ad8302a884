package outbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// Webhook POSTs events as CloudEvents: one per request in structured mode
// (Batch 1), or up to Batch per request as a JSON array in batched mode.
// A 2xx answer acknowledges the request's events; anything else, a
// redirect included, fails them. Every request carries the Standard
// Webhooks headers: webhook-id (see webhookID), webhook-timestamp and,
// with a secret, webhook-signature.
type Webhook struct {
	url    string
	batch  int
	secret WebhookSecret
	now    func() time.Time
	client *http.Client
}

// WebhookConfig sets up a Webhook. URL and Now are required.
type WebhookConfig struct {
	URL string
	// Batch is how many events one request carries; 0 or 1 is structured
	// mode, more is batched mode.
	Batch int
	// Secret signs each request; the zero value sends no signature.
	Secret WebhookSecret
	// Timeout bounds each request; 0 means 10s.
	Timeout time.Duration
	// Now stamps each request's webhook-timestamp.
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
func (w *Webhook) Deliver(ctx context.Context, evs []storetype.Event) (int, error) {
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

func (w *Webhook) post(ctx context.Context, evs []storetype.Event) error {
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
	w.stamp(req.Header, evs, body)
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

// stamp sets the Standard Webhooks headers of a request carrying evs as
// body and, for a legacy secret, the deprecated SignatureHeader, both
// signed at the same time.
func (w *Webhook) stamp(h http.Header, evs []storetype.Event, body []byte) {
	id, at := webhookID(evs), w.now()
	h.Set(HeaderWebhookID, id)
	h.Set(HeaderWebhookTimestamp, strconv.FormatInt(at.Unix(), 10))
	if !w.secret.Signs() {
		return
	}
	h.Set(HeaderWebhookSignature, w.secret.Signature(id, at, body))
	if w.secret.Legacy() {
		h.Set(SignatureHeader, Sign(w.secret.key, at, body))
	}
}

func (w *Webhook) encode(evs []storetype.Event) ([]byte, string, error) {
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
