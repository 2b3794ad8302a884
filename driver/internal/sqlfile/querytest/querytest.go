// Package querytest checks a SQL driver's named queries in its tests.
package querytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// CheckNames checks, in the test of a driver whose queries are names,
// that the driver has every query sqlfile runs by name
// (sqlfile.SharedQueries) and, of the others, that every query the
// driver's Go files name exists and every one is named
// (checkOwnNames).
func CheckNames(t *testing.T, names []string) {
	t.Helper()
	for _, n := range sqlfile.SharedQueries {
		if !slices.Contains(names, n) {
			t.Errorf("no query %s, which sqlfile runs", n)
		}
	}
	own := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return slices.Contains(sqlfile.SharedQueries, n) })
	checkOwnNames(t, own)
}

// Checked returns the text, as written, of the query name among those
// sqlc checks (in the files of fsys matching pattern, each named with its
// sqlc kind, "GetCoupon :one"): for a driver's test that explains it.
func Checked(fsys fs.FS, pattern, name string) string {
	for n, s := range sqlfile.MustLoadQueries(fsys, pattern) {
		if strings.Fields(n)[0] == name {
			return s
		}
	}
	panic("querytest: sqlc checks no query named " + name)
}

// Text returns the text of the query name of SQLite's or PostgreSQL's
// driver: embedded (in queries), or checked by sqlc (in checked, the
// driver's internal/dbsqlc/*.sql) with its @names numbered after mark (?
// or $) in order, as sqlc writes them: for a test that explains it.
func Text(queries sqlfile.Queries, checked fs.FS, name, mark string) string {
	if s, ok := queries[name]; ok {
		return s
	}
	var names []string
	return regexp.MustCompile(`@\w+`).ReplaceAllStringFunc(Checked(checked, "internal/dbsqlc/*.sql", name), func(n string) string {
		i := slices.Index(names, n)
		if i < 0 {
			i, names = len(names), append(names, n)
		}
		return mark + strconv.Itoa(i+1)
	})
}

// queryCallers are the functions a backend runs a named query through:
// a string literal passed to one of them names a query.
var queryCallers = []string{
	"Get", "exec", "execOne", "execCount", "execList", "execRaw", "query", "queryRow", "queryList", "queryRows",
	"read", "readRow", "leases", "reminders", "stmt",
}

// checkOwnNames checks, in the test of a backend whose embedded queries
// are names, what would otherwise fail only at run time: that every query
// the package's Go files (tests aside, in the test's directory) name by a
// string literal, passed to a query-running function or held in a map
// literal of query names (a variable named *Queries), exists, and that
// every query is named by some Go file.
func checkOwnNames(t *testing.T, names []string) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatalf("parse the package: %v", err)
	}
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	named, literals := map[string]token.Position{}, map[string]bool{}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING {
						literals[s] = true
					}
				case *ast.CallExpr:
					if slices.Contains(queryCallers, callee(n.Fun)) {
						// The name is the first argument, or the second
						// after a context.
						for _, a := range n.Args[:min(2, len(n.Args))] {
							if addName(fset, named, a) {
								break
							}
						}
					}
				case *ast.ValueSpec:
					for i, id := range n.Names {
						if strings.HasSuffix(id.Name, "Queries") && i < len(n.Values) {
							if lit, ok := n.Values[i].(*ast.CompositeLit); ok {
								for _, el := range lit.Elts {
									if kv, ok := el.(*ast.KeyValueExpr); ok {
										addName(fset, named, kv.Value)
									}
								}
							}
						}
					}
				}
				return true
			})
		}
	}
	for n, at := range named {
		if !known[n] {
			t.Errorf("%s: no query named %q", at, n)
		}
	}
	for _, n := range names {
		if !literals[n] {
			t.Errorf("query %s: no Go file names it", n)
		}
	}
}

// callee is the name of the function or method fun calls.
func callee(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// addName records e, if a string literal, as a query name used at its
// position.
func addName(fset *token.FileSet, named map[string]token.Position, e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	s, err := strconv.Unquote(lit.Value)
	if err == nil {
		named[s] = fset.Position(lit.Pos())
	}
	return err == nil
}
