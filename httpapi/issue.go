package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
)

// maxIssueBody caps the body of a bulk issuance: some ten million users
// as NDJSON. The users are checked as they are read and spooled to a
// temporary file (see spool), then issued a batch at a time: memory does
// not grow with the body, so the cap bounds the spool's disk and how long
// one request runs, not what it holds in memory.
const maxIssueBody = 256 << 20

// maxIssueLine caps one NDJSON line.
const maxIssueLine = 64 << 10

// ndjson is the media type of a streamed user list.
const ndjson = "application/x-ndjson"

// issuedJSON is the answer to a bulk issuance.
type issuedJSON struct {
	Issued int64 `json:"issued"`
	// Refused lists the first store.MaxRefused refusals, in list order.
	Refused []refusalJSON `json:"refused"`
	// RefusedCount counts every refusal by reason.
	RefusedCount map[string]int64 `json:"refused_count"`
	// SoldOutFrom is, once the total ran out, the list position (from 0)
	// of the first user refused sold-out.
	SoldOutFrom *int64 `json:"sold_out_from,omitempty"`
}

type refusalJSON struct {
	UserID string `json:"user_id"`
	Reason string `json:"reason"`
}

// issuedView writes an issuance, each refusal's reason as its problem slug.
func issuedView(res store.Issued, _ time.Time) issuedJSON {
	v := issuedJSON{Issued: res.Issued, Refused: make([]refusalJSON, len(res.Refused)), RefusedCount: map[string]int64{}}
	for i, r := range res.Refused {
		v.Refused[i] = refusalJSON{UserID: r.UserID, Reason: slug(r.Reason)}
	}
	for reason, n := range res.RefusedCount {
		v.RefusedCount[slug(reason)] += n
	}
	if res.RefusedCount[coupon.ErrSoldOut] > 0 {
		v.SoldOutFrom = &res.SoldOutFrom
	}
	return v
}

// issue serves POST /v1/templates/{id}/issue: a JSON body
// {"user_ids": [...]}, or an NDJSON stream of {"user_id": "..."} lines. The
// body is read once, every user checked as it comes and spooled to disk;
// a bad line anywhere refuses the request before anything is issued. Then
// the spool is issued a batch at a time.
func (s *server) issue(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	s.extendDeadlines(w)
	fp := newFingerprint(r)
	body := io.TeeReader(http.MaxBytesReader(w, r.Body, maxIssueBody), fp)
	mt, err := mediaType(r, ndjson)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	decode := decodeIssueJSON
	if mt == ndjson {
		decode = decodeIssueNDJSON
	}
	sp, err := newSpool()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer func() {
		if err := sp.Close(); err != nil {
			s.log.WarnContext(r.Context(), "httpapi: bulk issuance spool", "err", err)
		}
	}()
	if err := decode(body, sp.add); err != nil {
		s.fail(w, r, err)
		return
	}
	users, err := sp.users()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	commit(s, w, r, now, fp, http.StatusOK, func(ctx context.Context, idem *store.Idempotency) (store.Issued, error) {
		return s.store.Issue(ctx, store.IssueParams{TemplateID: r.PathValue("id"), Users: users, Now: now, Idem: idem})
	}, issuedView)
}

// decodeIssueJSON reads {"user_ids": ["...", ...]} strictly, one user at a
// time: valid UTF-8 (see utf8Reader), one object whose one field is
// user_ids, spelled so, a non-empty array of user IDs, each checked and
// then passed to add. An empty body stands for {}.
func decodeIssueJSON(r io.Reader, add func(string) error) error {
	u := &utf8Reader{r: r}
	return u.first(decodeIssueUsers(u, add))
}

// decodeIssueUsers is decodeIssueJSON on a body whose encoding r checks.
func decodeIssueUsers(r io.Reader, add func(string) error) error {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err == io.EOF {
		return invalid("user_ids", "is required")
	}
	if err != nil {
		return malformed(decodeError(err))
	}
	if tok != json.Delim('{') {
		return malformed(errors.New("body is not a JSON object"))
	}
	n := -1 // users read; -1 while user_ids is not seen
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return malformed(decodeError(err))
		}
		if key != "user_ids" {
			return malformed(fmt.Errorf("json: unknown field %q", key))
		}
		if n >= 0 {
			return malformed(errors.New("json: user_ids given twice"))
		}
		if n, err = decodeUserIDs(dec, add); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return malformed(decodeError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return malformed(errors.New("trailing data after the JSON object"))
	}
	if n < 0 {
		return invalid("user_ids", "is required")
	}
	return nonEmpty(n)
}

// decodeUserIDs reads the value of user_ids from dec, an array of strings
// or null, checking each user and passing it to add; it returns how many
// there were.
func decodeUserIDs(dec *json.Decoder, add func(string) error) (int, error) {
	tok, err := dec.Token()
	if err != nil {
		return 0, malformed(decodeError(err))
	}
	if tok == nil {
		return 0, nil
	}
	if tok != json.Delim('[') {
		return 0, malformed(errors.New("user_ids: want an array of strings"))
	}
	n := 0
	for ; dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return n, malformed(fmt.Errorf("user_ids[%d]: %w", n, decodeError(err)))
		}
		if err := validEscapes(raw, dec.InputOffset()-int64(len(raw))); err != nil {
			return n, err
		}
		var u *string
		if err := json.Unmarshal(raw, &u); err != nil {
			return n, malformed(fmt.Errorf("user_ids[%d]: %w", n, decodeError(err)))
		}
		if err := addUser(fmt.Sprintf("user_ids[%d]", n), u, add); err != nil {
			return n, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing bracket
		return n, malformed(decodeError(err))
	}
	return n, nil
}

// addUser checks user, named field in the body (null standing for none),
// and passes it to add.
func addUser(field string, user *string, add func(string) error) error {
	var u string
	if user != nil {
		u = *user
	}
	if err := input.ID(field, u); err != nil {
		return err
	}
	return add(u)
}

// issueLine is one line of an NDJSON user list.
type issueLine struct {
	UserID *string `json:"user_id"`
}

// decodeIssueNDJSON reads lines of {"user_id": "..."} strictly, each one
// object of valid UTF-8 whose one field is user_id, spelled so, given
// once, a user ID, checked and then passed to add. Blank lines are
// skipped; at least one user is required.
func decodeIssueNDJSON(r io.Reader, add func(string) error) error {
	u := &utf8Reader{r: r}
	sc := bufio.NewScanner(u)
	sc.Buffer(make([]byte, 0, 4096), maxIssueLine)
	users := 0
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		obj, err := decodeJSON[issueLine](line)
		var mal *malformedError
		var inv *coupon.InvalidError
		switch {
		case errors.As(err, &mal):
			return malformed(fmt.Errorf("line %d: %w", n, err))
		case errors.As(err, &inv): // the line's text, its bytes counted from its start
			return invalid(fmt.Sprintf("%s (line %d)", inv.Field, n), inv.Reason)
		}
		if err == nil {
			err = addUser(fmt.Sprintf("user_id (line %d)", n), obj.UserID, add)
		}
		if err != nil {
			return err
		}
		users++
	}
	if err := sc.Err(); err != nil {
		return u.first(malformed(fmt.Errorf("read body: %w", err)))
	}
	return nonEmpty(users)
}

// nonEmpty refuses a list of n users if it is empty.
func nonEmpty(n int) error {
	if n == 0 {
		return invalid("user_ids", "must name at least one user")
	}
	return nil
}
