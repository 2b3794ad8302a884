package outbox

import (
	"context"
	"net/url"
	"strings"

	"github.com/lapsehq/lapse/storetype"
)

// redactedMark stands for a secret in what lapse shows of a sink URL, as
// in url.URL.Redacted.
const redactedMark = "xxxxx"

// minSecret is the length from which a secret is hidden wherever it
// appears in an error; a shorter value (?v=1) is hidden only where its URL
// is shown, so as not to blank every "1" of a message.
const minSecret = 6

// redactURL returns u with its password and each query value as xxxxx.
func redactURL(u *url.URL) string {
	r := *u
	if q := r.Query(); len(q) > 0 {
		for _, vs := range q {
			for i := range vs {
				vs[i] = redactedMark
			}
		}
		r.RawQuery = q.Encode()
	}
	return r.Redacted()
}

// redactor hides u's secrets, its password and query values, and the
// other secrets given, in text: u wherever it is shown whole, as given or
// as Go's HTTP client shows it (password as ***), and each secret of
// minSecret bytes or more wherever it appears, as is or query-escaped (a
// receiver may echo it).
func redactor(u *url.URL, secrets ...string) *strings.Replacer {
	shown := redactURL(u)
	pairs := []string{u.String(), shown}
	password, hasPassword := u.User.Password()
	if hasPassword {
		pairs = append(pairs, strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1), shown)
		secrets = append(secrets, password)
	}
	for _, vs := range u.Query() {
		secrets = append(secrets, vs...)
	}
	for _, s := range secrets {
		if len(s) >= minSecret {
			pairs = append(pairs, s, redactedMark, url.QueryEscape(s), redactedMark)
		}
	}
	return strings.NewReplacer(pairs...)
}

// redactedError is an error whose text has a sink URL's secrets hidden.
// It unwraps to the original, for errors.Is and errors.As, but its text is
// the only one lapse shows.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactErr returns err with r applied to its text.
func redactErr(r *strings.Replacer, err error) error {
	if err == nil {
		return nil
	}
	msg := r.Replace(err.Error())
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}

// redacting is a sink whose errors never show its URL's secrets: what the
// relay logs, reports in GET /v1/sinks and stores with dead letters.
type redacting struct {
	sink Sink
	r    *strings.Replacer
}

func (s redacting) Deliver(ctx context.Context, evs []storetype.Event) (int, error) {
	n, err := s.sink.Deliver(ctx, evs)
	return n, redactErr(s.r, err)
}

func (s redacting) Close() error { return redactErr(s.r, s.sink.Close()) }
