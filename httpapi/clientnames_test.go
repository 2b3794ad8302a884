package httpapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
)

// stringConsts returns the string constants whose names start with prefix
// that the package in dir declares (its tests left out), by name less
// prefix.
func stringConsts(t *testing.T, dir, prefix string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, spec := range g.Specs {
					v := spec.(*ast.ValueSpec)
					for i, name := range v.Names {
						lit, ok := at(v.Values, i).(*ast.BasicLit)
						if !strings.HasPrefix(name.Name, prefix) || !ok || lit.Kind != token.STRING {
							continue
						}
						s, err := strconv.Unquote(lit.Value)
						if err != nil {
							t.Fatal(err)
						}
						out[strings.TrimPrefix(name.Name, prefix)] = s
					}
				}
			}
		}
	}
	return out
}

// at is values[i], nil past its end.
func at(values []ast.Expr, i int) ast.Expr {
	if i < len(values) {
		return values[i]
	}
	return nil
}

// sortedValues is m's values, sorted.
func sortedValues(m map[string]string) []string { return slices.Sorted(maps.Values(m)) }

// TestClientNames: the Go client's constants for problem slugs, event
// types, states and kinds are exactly the server's, by value (and, where
// the server names them as constants too, by name), so they cannot drift
// apart.
func TestClientNames(t *testing.T) {
	const clientDir = "../client"
	var slugs []string
	for _, ty := range problemTypes {
		slugs = append(slugs, ty.slug)
	}
	slices.Sort(slugs)
	if got := sortedValues(stringConsts(t, clientDir, "Slug")); !slices.Equal(got, slugs) {
		t.Errorf("client Slug constants: got %q, want the problem types' %q", got, slugs)
	}

	var coupons []string
	for _, s := range coupon.States {
		coupons = append(coupons, s.String())
	}
	var orders []string
	for s := order.Status(1); !strings.HasPrefix(s.String(), "Status("); s++ {
		orders = append(orders, s.String())
	}
	for _, c := range []struct {
		what string
		got  []string
		want []string
	}{
		{"Coupon (states)", sortedValues(stringConsts(t, clientDir, "Coupon")), slices.Sorted(slices.Values(coupons))},
		{"Order (states)", sortedValues(stringConsts(t, clientDir, "Order")), slices.Sorted(slices.Values(orders))},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("client %s constants: got %q, want the server's %q", c.what, c.got, c.want)
		}
	}

	for _, c := range []struct {
		what      string
		got, want map[string]string
	}{
		{"Event (event types)", stringConsts(t, clientDir, "Event"), stringConsts(t, "../store", "Event")},
		{"Close (close reasons)", stringConsts(t, clientDir, "Close"), stringConsts(t, "../order", "Reason")},
		{"Operation (states and kinds)", stringConsts(t, clientDir, "Operation"), stringConsts(t, "../storetype", "Operation")},
	} {
		if !maps.Equal(c.got, c.want) {
			t.Errorf("client %s constants: got %v, want the server's %v", c.what, c.got, c.want)
		}
	}
}
