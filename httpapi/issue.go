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

	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
)

// maxIssueBody caps the body of a bulk issuance: some ten million users
// as NDJSON. The users are held in memory while they are issued.
const maxIssueBody = 256 << 20

// maxIssueLine caps one NDJSON line.
const maxIssueLine = 64 << 10

// ndjson is the media type of a streamed user list.
const ndjson = "application/x-ndjson"

// issuedJSON is the answer to a bulk issuance.
type issuedJSON struct {
	Issued  int64         `json:"issued"`
	Refused []refusalJSON `json:"refused"`
}

type refusalJSON struct {
	UserID string `json:"user_id"`
	Reason string `json:"reason"`
}

// issuedView writes an issuance, each refusal's reason as its problem slug.
func issuedView(res store.Issued, _ time.Time) issuedJSON {
	v := issuedJSON{Issued: res.Issued, Refused: make([]refusalJSON, len(res.Refused))}
	for i, r := range res.Refused {
		v.Refused[i] = refusalJSON{UserID: r.UserID, Reason: slug(r.Reason)}
	}
	return v
}

// issue serves POST /v1/templates/{id}/issue: a JSON body
// {"user_ids": [...]}, or an NDJSON stream of {"user_id": "..."} lines. The
// whole list is read and checked before anything is issued, so a bad line
// anywhere refuses the request and changes nothing.
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
	users, err := decode(body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	commit(s, w, r, now, fp, http.StatusOK, func(ctx context.Context) (store.Issued, error) {
		return s.store.Issue(ctx, store.IssueParams{TemplateID: r.PathValue("id"), UserIDs: users, Now: now})
	}, issuedView)
}

// decodeIssueJSON reads {"user_ids": ["...", ...]} strictly: one object
// whose one field is user_ids, spelled so, a non-empty array of non-empty
// strings. An empty body stands for {}.
func decodeIssueJSON(r io.Reader) ([]string, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, invalid("user_ids", "is required")
	}
	if err != nil {
		return nil, malformed(decodeError(err))
	}
	if tok != json.Delim('{') {
		return nil, malformed(errors.New("body is not a JSON object"))
	}
	var users []string
	seen := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, malformed(decodeError(err))
		}
		if key != "user_ids" {
			return nil, malformed(fmt.Errorf("json: unknown field %q", key))
		}
		if seen {
			return nil, malformed(errors.New("json: user_ids given twice"))
		}
		seen = true
		if err := dec.Decode(&users); err != nil {
			return nil, malformed(decodeError(err))
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, malformed(decodeError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, malformed(errors.New("trailing data after the JSON object"))
	}
	if !seen {
		return nil, invalid("user_ids", "is required")
	}
	for i, u := range users {
		if err := input.ID(fmt.Sprintf("user_ids[%d]", i), u); err != nil {
			return nil, err
		}
	}
	return users, nonEmpty(users)
}

// decodeIssueNDJSON reads lines of {"user_id": "..."} strictly, each one
// object whose one field is user_id, spelled so, a non-empty string. Blank
// lines are skipped; at least one user is required.
func decodeIssueNDJSON(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxIssueLine)
	var users []string
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var obj map[string]*string
		if err := json.Unmarshal(line, &obj); err != nil {
			return nil, malformed(fmt.Errorf("line %d: %w", n, decodeError(err)))
		}
		u, ok := obj["user_id"]
		if !ok || len(obj) != 1 {
			return nil, malformed(fmt.Errorf(`line %d: want {"user_id": "..."}`, n))
		}
		if u == nil {
			u = new(string) // null: refused as empty
		}
		if err := input.ID(fmt.Sprintf("user_id (line %d)", n), *u); err != nil {
			return nil, err
		}
		users = append(users, *u)
	}
	if err := sc.Err(); err != nil {
		return nil, malformed(fmt.Errorf("read body: %w", err))
	}
	return users, nonEmpty(users)
}

func nonEmpty(users []string) error {
	if len(users) == 0 {
		return invalid("user_ids", "must name at least one user")
	}
	return nil
}
