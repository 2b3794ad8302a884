package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client calls one lapse server. It is safe for concurrent use.
type Client struct {
	base  string
	http  *http.Client
	token string
	retry Retry
	// noKeys: mutations carry no Idempotency-Key unless the context
	// names one.
	noKeys bool
}

// Option adjusts a Client made by New.
type Option func(*Client)

// WithToken sends token as the bearer credential of every request.
func WithToken(token string) Option { return func(c *Client) { c.token = token } }

// WithHTTPClient sends requests through h in place of a client whose only
// bound is a 30 s timeout per attempt.
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithRetry sets how failed calls are retried in place of DefaultRetry.
func WithRetry(r Retry) Option { return func(c *Client) { c.retry = r } }

// WithoutIdempotencyKeys sends a mutation with no Idempotency-Key unless
// its context names one (WithIdempotencyKey), sparing the server the
// record of its key; such a mutation is never retried, since a retry might
// do its work twice.
func WithoutIdempotencyKeys() Option { return func(c *Client) { c.noKeys = true } }

// New returns a client of the lapse server at baseURL, such as
// "http://127.0.0.1:8080".
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimSuffix(baseURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("client: base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q: want http(s)://host[:port]", baseURL)
	}
	c := &Client{base: u.String(), http: &http.Client{Timeout: 30 * time.Second}, retry: DefaultRetry}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// keyContext carries the Idempotency-Key a caller chose.
type keyContext struct{}

// WithIdempotencyKey returns ctx under which the next mutation sends key
// as its Idempotency-Key in place of a random one: to make a call that
// survives the caller's own restart, such as an operator's command run
// again.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, keyContext{}, key)
}

// idempotencyKey is the key a mutation sends under ctx, "" for none.
func (c *Client) idempotencyKey(ctx context.Context) string {
	if key, ok := ctx.Value(keyContext{}).(string); ok && key != "" {
		return key
	}
	if c.noKeys {
		return ""
	}
	return rand.Text()
}

// call is one API request: path is escaped (see seg), in, if not nil, is
// its JSON body, out, if not nil, receives the JSON answer.
type call struct {
	method string
	path   string
	query  url.Values
	in     any
	out    any
}

// decoded sends cl as c.do does and returns the JSON answer, decoded as T.
func decoded[T any](ctx context.Context, c *Client, cl call) (T, error) {
	var out T
	cl.out = &out
	err := c.do(ctx, cl)
	return out, err
}

// do sends cl, retrying as c.retry says; a mutation sends one
// Idempotency-Key on every attempt.
func (c *Client) do(ctx context.Context, cl call) error {
	var body []byte
	if cl.in != nil {
		var err error
		if body, err = json.Marshal(cl.in); err != nil {
			return fmt.Errorf("client: %s %s: %w", cl.method, cl.path, err)
		}
	}
	header := http.Header{"Accept": {"application/json"}, "User-Agent": {userAgent}}
	if body != nil || cl.method != http.MethodGet {
		// Even an empty change says it is JSON: lapse in open mode
		// refuses one that does not, as a browser's from another site.
		header.Set("Content-Type", "application/json")
	}
	retry := c.retry
	if cl.method == http.MethodPost || cl.method == http.MethodPatch {
		if key := c.idempotencyKey(ctx); key != "" {
			header.Set("Idempotency-Key", key)
		} else {
			retry.Attempts = 1
		}
	}
	if c.token != "" {
		header.Set("Authorization", "Bearer "+c.token)
	}
	u := c.base + cl.path
	if len(cl.query) > 0 {
		u += "?" + cl.query.Encode()
	}
	for attempt := 1; ; attempt++ {
		res, err := c.send(ctx, cl.method, u, header, body)
		wait, again := retry.after(attempt, res, err)
		if !again || ctx.Err() != nil {
			if err != nil {
				return fmt.Errorf("client: %s %s: %w", cl.method, cl.path, err)
			}
			return res.decode(cl.out)
		}
		if err := sleep(ctx, wait); err != nil {
			return fmt.Errorf("client: %s %s: %w", cl.method, cl.path, err)
		}
	}
}

// response is what the server answered one attempt.
type response struct {
	status int
	header http.Header
	body   []byte
}

// send makes one attempt.
func (c *Client) send(ctx context.Context, method, u string, header http.Header, body []byte) (*response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header = header.Clone()
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	return &response{status: res.StatusCode, header: res.Header, body: b}, nil
}

// decode returns the problem res holds, or decodes its JSON into out.
func (res *response) decode(out any) error {
	if res.status >= 400 {
		return newProblem(res)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(res.body, out); err != nil {
		return fmt.Errorf("client: decode answer: %w", err)
	}
	return nil
}

// sleep waits d, or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// seg escapes an ID as one segment of a path.
func seg(id string) string { return url.PathEscape(id) }
