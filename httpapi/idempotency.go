package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"net/http"
	"time"

	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
)

// mutate serves a POST. It reads the body and hands it to call, which
// decodes it and runs the mutation at now, under idem; the result is
// answered as commit answers it.
func mutate[T, V any](s *server, w http.ResponseWriter, r *http.Request, status int,
	call func(ctx context.Context, idem *store.Idempotency, body []byte, now time.Time) (T, error),
	view func(T, time.Time) V) {
	now := s.now()
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	fp := newFingerprint(r)
	fp.Write(body)
	commit(s, w, r, now, fp, status, func(ctx context.Context, idem *store.Idempotency) (T, error) {
		return call(ctx, idem, body, now)
	}, view)
}

// mutateDecoded is mutate for a route whose body decodes to params p:
// decode reads the body at now (its error answered as its problem), and
// apply runs the mutation of p at now, under idem.
func mutateDecoded[P, T, V any](s *server, w http.ResponseWriter, r *http.Request, status int,
	decode func(body []byte, now time.Time) (P, error),
	apply func(ctx context.Context, p P, idem *store.Idempotency, now time.Time) (T, error),
	view func(T, time.Time) V) {
	mutate(s, w, r, status, func(ctx context.Context, idem *store.Idempotency, body []byte, now time.Time) (T, error) {
		p, err := decode(body, now)
		if err != nil {
			return *new(T), err
		}
		return apply(ctx, p, idem, now)
	}, view)
}

// untimed adapts a decoder that does not read the time to mutateDecoded.
func untimed[P any](decode func(body []byte) (P, error)) func([]byte, time.Time) (P, error) {
	return func(body []byte, _ time.Time) (P, error) { return decode(body) }
}

// commit runs call and answers its result with status and the JSON of
// view(result, now).
//
// With an Idempotency-Key header, which must be an ID (else 422 invalid),
// call runs under that key, which the store records with the mutation,
// under the fingerprint fp of the request: a retry is answered from the
// result the store recorded, rendered as it was at the first attempt. The
// key is scoped to the request's credential, method and path (see
// idempotencyScope), and held for the server's IdempotencyTTL. A refusal for the state of things (409) is
// recorded as the key's answer too, but not an invalid request nor a
// failure: see the idempotency keys of package store.
func commit[T, V any](s *server, w http.ResponseWriter, r *http.Request, now time.Time, fp hash.Hash, status int,
	call func(ctx context.Context, idem *store.Idempotency) (T, error),
	view func(T, time.Time) V) {
	key, err := idempotencyKey(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var idem *store.Idempotency
	if key != "" {
		idem = &store.Idempotency{
			Key:         key,
			Scope:       idempotencyScope(r),
			Fingerprint: hex.EncodeToString(fp.Sum(nil)),
			Now:         now,
			TTL:         s.idempotencyTTL,
		}
	}
	result, err := call(r.Context(), idem)
	var replay *store.ReplayError
	if errors.As(err, &replay) {
		result, now = *new(T), replay.At
		err = json.Unmarshal(replay.Result, &result)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	write(w, status, "application/json", mustJSON(view(result, now)))
}

// idempotencyKey returns r's Idempotency-Key, "" if it has none; a key
// that is not an ID is invalid.
func idempotencyKey(r *http.Request) (string, error) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		return "", nil
	}
	return key, input.ID("Idempotency-Key", key)
}

// idempotencyScope is what r's Idempotency-Key is scoped to: its method
// and path and, once credentials exist, the name of its token, so that two
// clients cannot take each other's keys.
func idempotencyScope(r *http.Request) string {
	scope := r.Method + " " + r.URL.Path
	if actor := store.Actor(r.Context()); actor != "" {
		scope = "token " + actor + " " + scope
	}
	return scope
}

// newFingerprint starts the fingerprint of r for its idempotency key: the
// SHA-256 of method, path and then the body, written to it by the caller.
func newFingerprint(r *http.Request) hash.Hash {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", r.Method, r.URL.Path)
	return h
}
