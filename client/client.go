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
	// noKeys: mutations carry no Idempotency-Key unless their params
	// name one.
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
// its params name one (their IdempotencyKey field), sparing the server
// the record of its key; such a mutation is never retried, since a retry
// might do its work twice.
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

// idempotencyKey is the key a mutation sends, "" for none: the one its
// caller chose, else a random one unless c sends none.
func (c *Client) idempotencyKey(chosen string) string {
	if chosen != "" || c.noKeys {
		return chosen
	}
	return rand.Text()
}

// call is one API request: path is escaped (see seg), in, if not nil, is
// its JSON body, or stream, if not nil, gives its NDJSON body anew for
// each attempt; out, if not nil, receives the JSON answer; key is the
// Idempotency-Key its caller chose, "" for a random one; untimed drops the
// HTTP client's timeout, ctx alone bounding the call.
type call struct {
	method  string
	path    string
	query   url.Values
	in      any
	stream  func() io.Reader
	out     any
	key     string
	untimed bool
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
	body := cl.stream
	if cl.in != nil {
		b, err := json.Marshal(cl.in)
		if err != nil {
			return fmt.Errorf("client: %s %s: %w", cl.method, cl.path, err)
		}
		body = func() io.Reader { return bytes.NewReader(b) }
	}
	header := http.Header{"Accept": {"application/json"}, "User-Agent": {userAgent}}
	switch {
	case cl.stream != nil:
		header.Set("Content-Type", "application/x-ndjson")
	case body != nil || cl.method != http.MethodGet:
		// Even an empty change says it is JSON: lapse in open mode
		// refuses one that does not, as a browser's from another site.
		header.Set("Content-Type", "application/json")
	}
	h := c.http
	if cl.untimed && h.Timeout > 0 {
		untimed := *h
		untimed.Timeout = 0
		h = &untimed
	}
	retry := c.retry
	if cl.method == http.MethodPost || cl.method == http.MethodPatch {
		if key := c.idempotencyKey(cl.key); key != "" {
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
		res, err := send(ctx, h, cl.method, u, header, body)
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

// send makes one attempt through h.
func send(ctx context.Context, h *http.Client, method, u string, header http.Header, body func() io.Reader) (*response, error) {
	var rd io.Reader
	if body != nil {
		rd = body()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		if c, ok := rd.(io.Closer); ok {
			c.Close()
		}
		return nil, err
	}
	req.Header = header.Clone()
	res, err := h.Do(req)
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
