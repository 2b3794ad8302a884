package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"net/http"
	"time"

	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
)

// mutate serves a POST. It reads the body and hands it to call, which
// decodes it and runs the mutation at now; the result is answered as
// commit answers it.
func mutate[T, V any](s *server, w http.ResponseWriter, r *http.Request, status int,
	call func(ctx context.Context, body []byte, now time.Time) (T, error),
	view func(T, time.Time) V) {
	now := s.now()
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	fp := newFingerprint(r)
	fp.Write(body)
	commit(s, w, r, now, fp, status, func(ctx context.Context) (T, error) { return call(ctx, body, now) }, view)
}

// commit runs call and answers its result with status and the JSON of
// view(result, now).
//
// With an Idempotency-Key header, which must be an ID (else 422 invalid),
// call's context asks the store to save that same response with the
// mutation, under the fingerprint fp of the request, and a retry is
// answered with the response the store replays. The key is scoped to the
// request's method and path, and held for the server's IdempotencyTTL. A
// refusal for the state of things (409) is saved as the key's response
// too, but not an invalid request nor a failure: see keep.
func commit[T, V any](s *server, w http.ResponseWriter, r *http.Request, now time.Time, fp hash.Hash, status int,
	call func(ctx context.Context) (T, error),
	view func(T, time.Time) V) {
	render := func(result any) (int, []byte) {
		res, ok := result.(T)
		if !ok {
			// A store passing another result is a bug; this answer is what
			// a retry then replays.
			s.log.ErrorContext(r.Context(), "httpapi: unexpected result to render",
				"path", r.URL.Path, "type", fmt.Sprintf("%T", result))
			p := toProblem(fmt.Errorf("render %T", result))
			return p.Status, mustJSON(p)
		}
		return status, mustJSON(view(res, now))
	}
	ctx := r.Context()
	if key := r.Header.Get("Idempotency-Key"); key != "" {
		if err := input.ID("Idempotency-Key", key); err != nil {
			s.fail(w, r, err)
			return
		}
		ctx = store.WithIdempotency(ctx, store.Idempotency{
			Key:         key,
			Scope:       r.Method + " " + r.URL.Path,
			Fingerprint: hex.EncodeToString(fp.Sum(nil)),
			Now:         now,
			TTL:         s.idempotencyTTL,
			Render:      render,
			RenderError: func(err error) (int, []byte, bool) {
				p := toProblem(err)
				return p.Status, mustJSON(p), keep(p)
			},
		})
	}
	result, err := call(ctx)
	var replay *store.ReplayError
	switch {
	case errors.As(err, &replay):
		write(w, replay.Status, contentType(replay.Status), replay.Body)
	case err != nil:
		s.fail(w, r, err)
	default:
		code, b := render(result)
		write(w, code, "application/json", b)
	}
}

// keep reports whether a refusal is kept as the response to its
// idempotency key, as at Stripe: one for the state of things (409) is, but
// not a malformed or invalid request, nor a failure, which a retry may
// get past, nor a conflict on the key itself.
func keep(p problem) bool {
	return p.Status == http.StatusConflict && p.Type != "/problems/idempotency-conflict"
}

// contentType is the media type of a response of status: a problem
// document for an error.
func contentType(status int) string {
	if status >= 400 {
		return "application/problem+json"
	}
	return "application/json"
}

// newFingerprint starts the fingerprint of r for its idempotency key: the
// SHA-256 of method, path and then the body, written to it by the caller.
func newFingerprint(r *http.Request) hash.Hash {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", r.Method, r.URL.Path)
	return h
}
