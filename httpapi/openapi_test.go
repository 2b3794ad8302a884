package httpapi

import (
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/credential"
)

// openAPIPaths is what the tests read of openapi.json: each path's
// operations by method, with their security.
type openAPIPaths struct {
	Paths map[string]map[string]struct {
		Security []map[string][]string `json:"security"`
	} `json:"paths"`
	Components struct {
		Schemas struct {
			ProblemType struct {
				Enum []string `json:"enum"`
			} `json:"ProblemType"`
		} `json:"schemas"`
	} `json:"components"`
}

func readOpenAPI(t *testing.T) openAPIPaths {
	t.Helper()
	var doc openAPIPaths
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	return doc
}

// TestOpenAPIDocument: openapi.json is a valid OpenAPI 3.1 document, and
// GET /openapi.json serves it, without a credential.
func TestOpenAPIDocument(t *testing.T) {
	v, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	if ok, errs := v.ValidateDocument(); !ok {
		t.Fatalf("openapi.json is not a valid OpenAPI document:%s", describe(errs))
	}
	e := setup(t)
	mintTokens(t, e.store) // credentials exist: the document needs none
	res := e.get("/openapi.json")
	if res.status != http.StatusOK || res.header.Get("Content-Type") != "application/json" || string(res.body) != string(openAPI) {
		t.Fatalf("GET /openapi.json: got %d %q, %d bytes; want 200, the embedded document", res.status, res.header.Get("Content-Type"), len(res.body))
	}
}

// TestOpenAPIRoutes: every route of the server is an operation of
// openapi.json and every operation a route, with the route's scope as the
// bearer scope its security asks (none for a public route).
func TestOpenAPIRoutes(t *testing.T) {
	srv := New(Config{Store: openSQLite(t), Now: time.Now, Metrics: http.NotFoundHandler()}).(*server)
	doc := readOpenAPI(t)
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			pattern := muxPattern(method, path)
			documented[pattern] = true
			scope, ok := srv.routes[pattern]
			switch {
			case !ok:
				t.Errorf("openapi.json has %s, which the server does not route", pattern)
			case scope == public && len(op.Security) != 0:
				t.Errorf("%s: public, but openapi.json asks security %v; want []", pattern, op.Security)
			case scope != public && !slices.Equal(bearerScopes(op.Security), []string{scope.String()}):
				t.Errorf("%s: needs scope %s, but openapi.json asks security %v; want [{bearer: [%s]}, {}]", pattern, scope, op.Security, scope)
			}
		}
	}
	for _, pattern := range slices.Sorted(maps.Keys(srv.routes)) {
		if !documented[pattern] {
			t.Errorf("the server routes %s, which openapi.json lacks: add it to the document's paths", pattern)
		}
	}
}

// muxPattern is the route pattern of the document's operation method
// path: the path as it is, but for one ending in "/", which the mux
// matches exactly only as ".../{$}" (bare, it is a subtree).
func muxPattern(method, path string) string {
	if strings.HasSuffix(path, "/") {
		path += "{$}"
	}
	return strings.ToUpper(method) + " " + path
}

// bearerScopes returns the scopes of a security requirement that takes a
// bearer token or, for an open store, none: [{bearer: [scope]}, {}].
func bearerScopes(security []map[string][]string) []string {
	if len(security) != 2 || len(security[1]) != 0 || len(security[0]) != 1 {
		return nil
	}
	return security[0]["bearer"]
}

// TestOpenAPIProblemTypes: the ProblemType enum of openapi.json is
// problemTypes, in order; every error the API answers maps to one of them;
// and each has its page, an unknown slug none.
func TestOpenAPIProblemTypes(t *testing.T) {
	var want []string
	for _, pt := range problemTypes {
		want = append(want, problemPath+pt.slug)
	}
	if got := readOpenAPI(t).Components.Schemas.ProblemType.Enum; !slices.Equal(got, want) {
		t.Errorf("openapi.json ProblemType enum:\n%q\nwant problemTypes':\n%q", got, want)
	}
	errs := []error{malformed(errors.New("x")), invalid("f", "x"), &forbiddenError{credential.Admin},
		&notFiringError{errors.New("x")}, errors.New("unknown")}
	for _, k := range kinds {
		errs = append(errs, k.err)
	}
	for _, err := range errs {
		if _, ok := findType(slug(err)); !ok {
			t.Errorf("%v maps to %q, which problemTypes lacks", err, slug(err))
		}
	}
	e := setup(t)
	mintTokens(t, e.store) // credentials exist: the pages need none
	for _, pt := range problemTypes {
		res := e.get(problemPath + pt.slug)
		if res.status != http.StatusOK || res.header.Get("Content-Type") != "text/html; charset=utf-8" ||
			!strings.Contains(string(res.body), "<h1>"+pt.title+"</h1>") {
			t.Errorf("GET %s%s: got %d %q %s; want 200, an HTML page titled %q", problemPath, pt.slug, res.status,
				res.header.Get("Content-Type"), res.body, pt.title)
		}
	}
	e.problem(e.get(problemPath+"no-such-slug"), http.StatusNotFound, "not-found")
}
