package payhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/lapsehq/lapse/order"
)

// Client calls one payment-status hook.
type Client struct {
	url    *url.URL
	client *http.Client
}

// New returns a Client for the hook at rawURL (http or https).
func New(rawURL string, client *http.Client) (*Client, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("payment check URL %q: want http(s)://host/path", rawURL)
	}
	if client == nil {
		client = http.DefaultClient
	}
	return &Client{url: u, client: client}, nil
}

// answer is the hook's reply.
type answer struct {
	Paid      *bool  `json:"paid"`
	PaymentID string `json:"payment_id"`
}

// Paid asks the hook about o. The caller bounds it with ctx.
func (c *Client) Paid(ctx context.Context, o order.Order) (bool, string, error) {
	u := *c.url
	q := u.Query()
	q.Set("order_id", o.ID)
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return false, "", err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return false, "", fmt.Errorf("payment check %s: %w", o.ID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false, "", fmt.Errorf("payment check %s: status %d", o.ID, resp.StatusCode)
	}
	var a answer
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&a); err != nil {
		return false, "", fmt.Errorf("payment check %s: %w", o.ID, err)
	}
	if a.Paid == nil {
		return false, "", errors.New("payment check " + o.ID + `: answer lacks "paid"`)
	}
	return *a.Paid, a.PaymentID, nil
}
