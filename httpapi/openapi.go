package httpapi

import (
	_ "embed"
	"net/http"
)

// openAPI is the OpenAPI 3.1 document of the API. It is written by hand;
// the tests keep it true: every route of New is in it and it holds no
// other (TestOpenAPIRoutes), its ProblemType enum is problemTypes
// (TestOpenAPIProblemTypes), and every request and response the tests
// make is validated against it (validated, in setup_test.go). A new
// route goes in New and in the document's paths, with the scope of the
// one as the bearer scope of the other.
//
//go:embed openapi.json
var openAPI []byte

// openAPIDoc serves GET /openapi.json.
func (s *server) openAPIDoc(w http.ResponseWriter, r *http.Request) {
	write(w, http.StatusOK, "application/json", openAPI)
}
