package httpapi

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/content"
	"github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
)

// Counts of the request/response pairs validated against openapi.json
// by every server the tests start (validated).
var (
	validatedPairs atomic.Int64
	// bigBodies counts the pairs whose request body passed maxBody: only
	// their path, query, headers and response were validated.
	bigBodies atomic.Int64
)

// TestMain logs how many request/response pairs the package's tests had
// validated against openapi.json, and fails a run of the whole package
// (no -run) that validated none: the wrapper would have been bypassed.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lapse-openapi-")
	if err != nil {
		fmt.Println("openapi:", err)
		os.Exit(1)
	}
	recordDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	n := validatedPairs.Load()
	fmt.Printf("openapi: %d request/response pairs validated against openapi.json (%d with a request body over %d bytes, body not validated)\n",
		n, bigBodies.Load(), maxBody)
	if run := flag.Lookup("test.run"); code == 0 && n == 0 && run != nil && run.Value.String() == "" {
		fmt.Println("openapi: no request was validated: the tests' servers bypass the validating wrapper")
		code = 1
	}
	os.Exit(code)
}

// contract is the validator of openapi.json, built once.
var contract = sync.OnceValues(func() (validator.Validator, error) {
	doc, err := libopenapi.NewDocument(openAPI)
	if err != nil {
		return nil, fmt.Errorf("parse openapi.json: %w", err)
	}
	v, errs := validator.NewValidator(doc, config.WithBodyDecoder(ndjson, content.DecoderFunc(decodeNDJSON)))
	if len(errs) > 0 {
		return nil, fmt.Errorf("build the validator of openapi.json: %v", errs)
	}
	return v, nil
})

// decodeNDJSON reads an NDJSON body as the array of its lines' values,
// blank lines skipped, for the document's schema of it.
func decodeNDJSON(in *content.DecodeInput) (any, error) {
	body, err := io.ReadAll(in.Body)
	if err != nil {
		return nil, err
	}
	lines := []any{}
	for line := range bytes.Lines(body) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			return nil, err
		}
		lines = append(lines, v)
	}
	return lines, nil
}

// recordDir holds the response bodies recorded for validation: on disk,
// so that the tests that bound the heap do not count them.
var recordDir string

// checking lets one pair at a time be validated: the tests that bound
// the heap see one pair's copy of its bodies, not one per request in
// flight.
var checking sync.Mutex

// validated wraps h, the API, so that every request it serves and the
// response it gives are validated against openapi.json, failing t on
// any mismatch:
//
//   - a request to an operation the document lacks must be answered 404
//     or 405 (an answer of the mux before any route, a redirect to a
//     clean path or 404 "no such route", is not checked further);
//   - a request the document forbids must be refused (4xx);
//   - every response must be one the document gives the operation:
//     status, media type, body and headers.
func validated(t *testing.T, h http.Handler) http.Handler {
	t.Helper()
	v, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := &capture{ReadCloser: r.Body, limit: maxBody}
		r.Body = body
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		defer rec.close()
		h.ServeHTTP(rec, r)
		io.Copy(io.Discard, io.LimitReader(body, maxBody+1)) // what the handler left unread
		checking.Lock()
		defer checking.Unlock()
		if err := check(v, r, body, rec); err != nil {
			t.Errorf("openapi.json: %s %s: %v", r.Method, r.URL.RequestURI(), err)
		}
	})
}

// check validates one pair: r, whose body was captured, and the response
// rec recorded.
func check(v validator.Validator, r *http.Request, body *capture, rec *recorder) error {
	req := r.Clone(r.Context())
	req.Body = io.NopCloser(bytes.NewReader(body.buf.Bytes()))
	if body.over() {
		bigBodies.Add(1)
		req.Body, req.ContentLength = http.NoBody, 0
	}
	if req.Header.Get("Content-Type") == "" && body.buf.Len() > 0 {
		req.Header.Set("Content-Type", "application/json") // as the server reads it
	}
	resBody, err := rec.bytes()
	if err != nil {
		return err
	}
	res := &http.Response{StatusCode: rec.status, Header: rec.header, Request: req,
		Body: io.NopCloser(bytes.NewReader(resBody))}
	_, reqErrs := v.ValidateHttpRequestSync(req)
	if unrouted(rec.status, res.Header, resBody) {
		return nil
	}
	if missingOperation(reqErrs) {
		return unknownOperation(res, resBody)
	}
	validatedPairs.Add(1)
	req.Body = io.NopCloser(bytes.NewReader(body.buf.Bytes()))
	_, resErrs := v.ValidateHttpResponse(req, res)
	switch {
	case len(resErrs) > 0:
		return fmt.Errorf("response %d %s does not match the document: %s", rec.status, resBody, describe(resErrs))
	case len(reqErrs) > 0 && rec.status < 400:
		return fmt.Errorf("answered %d to a request the document forbids: %s", rec.status, describe(reqErrs))
	}
	return nil
}

// missingOperation reports whether errs say the document has no such
// path, or no such method for it.
func missingOperation(errs []*errors.ValidationError) bool {
	for _, e := range errs {
		if e.ValidationType == helpers.PathValidation || e.ValidationSubType == helpers.ValidationMissingOperation {
			return true
		}
	}
	return false
}

// unrouted reports an answer the mux gave before any route was reached:
// a redirect to the clean form of the path ("//" in it), or 404 "no
// such route" (where the validator matches a path more loosely, as with a
// trailing slash).
func unrouted(status int, header http.Header, body []byte) bool {
	if status >= 300 && status < 400 && header.Get("Location") != "" {
		return true
	}
	return status == http.StatusNotFound && bytes.Contains(body, []byte(`"detail":"no such route"`))
}

// unknownOperation checks the answer to a request the document has no
// operation for: the server must not serve it either.
func unknownOperation(res *http.Response, body []byte) error {
	mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if (res.StatusCode == http.StatusNotFound && bytes.Contains(body, []byte(`"/problems/not-found"`)) ||
		res.StatusCode == http.StatusMethodNotAllowed) && mt == "application/problem+json" {
		return nil
	}
	return fmt.Errorf("answered %d %s, but openapi.json has no such operation: add it to the document's paths", res.StatusCode, body)
}

// describe joins validation errors into one message.
func describe(errs []*errors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "\n\t%s: %s", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "\n\t\t%s", f.Error())
		}
	}
	return b.String()
}

// capture is a request body that keeps, as it is read, its first limit
// bytes.
type capture struct {
	io.ReadCloser
	limit int
	buf   bytes.Buffer
	read  int
}

func (c *capture) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	if keep := min(n, c.limit-c.buf.Len()); keep > 0 {
		c.buf.Write(p[:keep])
	}
	c.read += n
	return n, err
}

// over says the body had more than limit bytes.
func (c *capture) over() bool { return c.read > c.limit }

// recorder passes a response through, keeping its status, headers and
// body, the body in a file of recordDir.
type recorder struct {
	http.ResponseWriter
	status int
	header http.Header
	body   *os.File
	err    error
}

func (rec *recorder) WriteHeader(status int) {
	if rec.header == nil {
		rec.status, rec.header = status, rec.ResponseWriter.Header().Clone()
	}
	rec.ResponseWriter.WriteHeader(status)
}

func (rec *recorder) Write(b []byte) (int, error) {
	if rec.header == nil {
		if rec.Header().Get("Content-Type") == "" {
			rec.Header().Set("Content-Type", http.DetectContentType(b)) // as net/http would
		}
		rec.WriteHeader(http.StatusOK)
	}
	if rec.body == nil && rec.err == nil {
		rec.body, rec.err = os.CreateTemp(recordDir, "body-*")
	}
	if rec.err == nil {
		_, rec.err = rec.body.Write(b)
	}
	return rec.ResponseWriter.Write(b)
}

// bytes returns the body recorded.
func (rec *recorder) bytes() ([]byte, error) {
	if rec.err != nil || rec.body == nil {
		return nil, rec.err
	}
	return os.ReadFile(rec.body.Name())
}

// close removes the recorded body.
func (rec *recorder) close() {
	if rec.body != nil {
		rec.body.Close()
		os.Remove(rec.body.Name())
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }
