package httpapi

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
)

// requestIDHeader names a request, on the way in and on the answer.
const requestIDHeader = "X-Request-Id"

// maxRequestIDLen is the longest request ID taken from a request.
const maxRequestIDLen = 128

// requestID is the ID of the request whose header is h: the one it
// carries in X-Request-Id, if it carries exactly one that is sane (see
// saneRequestID), or else a fresh one, 26 random base32 characters. It
// goes on the answer, on every log line of the request (requestLog) and
// in a problem's request_id.
func requestID(h http.Header) string {
	if ids := h.Values(requestIDHeader); len(ids) == 1 && saneRequestID(ids[0]) {
		return ids[0]
	}
	return rand.Text()
}

// saneRequestID reports whether id, from outside, may be echoed and
// logged as it is: 1 to maxRequestIDLen printable ASCII characters, no
// space, so no line break nor control character in a log.
func saneRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := range len(id) {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}

// requestIDKey is the context key of the request ID.
type requestIDKey struct{}

// withRequestID is ctx carrying the request ID id.
func withRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// requestIDOf is the request ID ctx carries, or "".
func requestIDOf(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// requestLog is a handler adding request_id to each record logged with
// the context of a request.
type requestLog struct{ slog.Handler }

func (h requestLog) Handle(ctx context.Context, r slog.Record) error {
	if id := requestIDOf(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestLog) WithAttrs(as []slog.Attr) slog.Handler {
	return requestLog{h.Handler.WithAttrs(as)}
}

func (h requestLog) WithGroup(name string) slog.Handler {
	return requestLog{h.Handler.WithGroup(name)}
}
