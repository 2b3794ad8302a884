package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/lapsehq/lapse/input"
)

// maxBody caps a request body. A larger one is answered 400 malformed, the
// status API.md gives that slug, rather than 413: a client branches on the
// slug, and the contract documents no other status for it.
const maxBody = 1 << 20

// readBody reads r's JSON body, at most maxBody bytes of it.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if _, err := mediaType(r); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, malformed(fmt.Errorf("body exceeds %d bytes", tooBig.Limit))
	case err != nil:
		return nil, malformed(fmt.Errorf("read body: %w", err))
	}
	return body, nil
}

// mediaType returns the media type of r's body: JSON (application/json, or
// any type ending in +json, with parameters or not), one of also, or "" if
// r names none, which is read as JSON. Any other is malformed, even for an
// empty body: a form a browser posts from another site is refused.
func mediaType(r *http.Request, also ...string) (string, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return "", nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json") || slices.Contains(also, mt)) {
		return mt, nil
	}
	want := strings.Join(append([]string{"application/json"}, also...), " or ")
	return "", malformed(fmt.Errorf("Content-Type %q: want %s", ct, want))
}

// decodeJSON decodes body strictly into a T: one JSON object, no unknown
// field, field names spelled exactly as T's json tags, nothing after it.
// An empty body stands for {}, so a request whose fields are all optional
// may omit it. Every failure is malformed.
func decodeJSON[T any](body []byte) (T, error) {
	var v T
	if len(bytes.TrimSpace(body)) == 0 {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return v, malformed(decodeError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return v, malformed(errors.New("trailing data after the JSON object"))
	}
	// encoding/json matches field names ignoring case and lets null stand
	// for an object; the contract does neither.
	var tree any
	if err := json.Unmarshal(body, &tree); err != nil {
		return v, malformed(err)
	}
	if _, ok := tree.(map[string]any); !ok {
		return v, malformed(errors.New("body is not a JSON object"))
	}
	names := map[string]bool{}
	jsonNames(reflect.TypeFor[T](), names)
	if err := exactNames(tree, names); err != nil {
		return v, malformed(err)
	}
	return v, nil
}

// decodeError words a decoding failure for the client, naming the field
// where encoding/json knows it.
func decodeError(err error) error {
	var typ *json.UnmarshalTypeError
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Errorf("%s: cannot take a JSON %s", typ.Field, typ.Value)
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("body is not valid JSON: %w", err)
	}
	return err
}

// jsonNames adds the json tag names of t's fields, nested ones included.
func jsonNames(t reflect.Type, names map[string]bool) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		jsonNames(t.Elem(), names)
	case reflect.Struct:
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" {
				names[name] = true
				jsonNames(f.Type, names)
			}
		}
	}
}

// exactNames reports an object key in tree not spelled as one of names.
// (Which object may hold which key, DisallowUnknownFields has checked.)
func exactNames(tree any, names map[string]bool) error {
	switch tree := tree.(type) {
	case map[string]any:
		for k, v := range tree {
			if !names[k] {
				return fmt.Errorf("json: unknown field %q", k)
			}
			if err := exactNames(v, names); err != nil {
				return err
			}
		}
	case []any:
		for _, v := range tree {
			if err := exactNames(v, names); err != nil {
				return err
			}
		}
	}
	return nil
}

// duration is a Go duration string in JSON ("72h", "15m").
type duration time.Duration

// UnmarshalJSON parses a duration string; null leaves d unchanged.
func (d *duration) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New(`a duration must be a string like "15m"`)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = duration(v)
	return nil
}

// truncate cuts a time from outside to the millisecond, in UTC: what
// every store keeps of it, so that it reads back as it was taken.
func truncate(t time.Time) time.Time { return t.UTC().Truncate(input.Precision) }
