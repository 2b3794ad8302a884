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
// empty body: a form a browser posts from another site is refused. So is a
// charset other than UTF-8 (the body would be read as UTF-8 all the same).
func mediaType(r *http.Request, also ...string) (string, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return "", nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json") || slices.Contains(also, mt)) {
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
			return "", malformed(fmt.Errorf("Content-Type %q: the body must be UTF-8 (charset=utf-8, or none)", ct))
		}
		return mt, nil
	}
	want := strings.Join(append([]string{"application/json"}, also...), " or ")
	return "", malformed(fmt.Errorf("Content-Type %q: want %s", ct, want))
}

// decodeJSON decodes body strictly into a T: valid UTF-8 with no \u
// escape of half a surrogate pair (else 422 invalid, as a path ID is:
// encoding/json would read either as U+FFFD, making two IDs one), one
// JSON object, no unknown field, field names
// spelled exactly as T's json tags, no key twice in one object, no null
// for a boolean, nothing after it. An empty body stands for {}, so a
// request whose fields are all optional may omit it. Every other failure
// is malformed.
func decodeJSON[T any](body []byte) (T, error) {
	var v T
	if err := validUTF8(body, 0); err != nil {
		return v, err
	}
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
	// encoding/json lets null stand for an object, matches field names
	// ignoring case, keeps the last of a key given twice and reads a null
	// boolean as false; the contract does none of these.
	if body := bytes.TrimSpace(body); bytes.Equal(body, []byte("null")) {
		return v, malformed(errors.New("body is not a JSON object"))
	}
	if err := validEscapes(body, 0); err != nil {
		return v, err
	}
	if err := checkJSON(json.NewDecoder(bytes.NewReader(body)), reflect.TypeFor[T](), ""); err != nil {
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

// unmarshaler is the interface of a type that reads its own JSON.
var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// checkJSON reads the next JSON value from dec, which encoding/json has
// decoded into a t (nil: a value whose shape is not checked), and reports
// what encoding/json lets through: a key given twice in one object, at
// any depth; an object key not spelled exactly as one of t's json tags;
// null where t holds a bool, which would read as false: absent. field
// names the value in errors ("" for the body). It reads each token once,
// allocating only the keys of the object it is in.
func checkJSON(dec *json.Decoder, t reflect.Type, field string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && reflect.PointerTo(t).Implements(unmarshaler) {
		t = nil // time.Time, duration: a string, whatever it reads into
	}
	tok, err := dec.Token()
	if err != nil {
		return decodeError(err)
	}
	switch tok {
	case nil:
		if t != nil && t.Kind() == reflect.Bool {
			return fmt.Errorf("%s: cannot take a JSON null: want true or false", field)
		}
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := checkJSON(dec, elem, fmt.Sprintf("%s[%d]", field, i)); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ]
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return decodeError(err)
			}
			key := tok.(string) // an object's keys are strings
			if seen[key] {
				return fmt.Errorf("json: key %q given twice", join(field, key))
			}
			seen[key] = true
			vt, err := memberType(t, key)
			if err != nil {
				return fmt.Errorf("json: unknown field %q", join(field, key))
			}
			if err := checkJSON(dec, vt, join(field, key)); err != nil {
				return err
			}
		}
		_, err = dec.Token() // }
	}
	return err
}

// errUnknownField: an object's key names no field of its type.
var errUnknownField = errors.New("unknown field")

// memberType returns the type of the value key holds in an object decoded
// into t: a struct field whose json tag is key, spelled exactly; a map's
// element; nil if t is nil or neither.
func memberType(t reflect.Type, key string) (reflect.Type, error) {
	switch {
	case t == nil:
		return nil, nil
	case t.Kind() == reflect.Map:
		return t.Elem(), nil
	case t.Kind() != reflect.Struct:
		return nil, nil
	}
	for f := range t.Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == key {
			return f.Type, nil
		}
	}
	return nil, errUnknownField
}

// join names key of the object at field.
func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
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
