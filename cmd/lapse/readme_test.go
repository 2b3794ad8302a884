package main

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
)

// docBlock returns the code block, of the language lang, that is the
// first of its language in the section named heading (a level-2 heading)
// of the Markdown page at path, relative to the repository's root.
func docBlock(t *testing.T, path, heading, lang string) string {
	t.Helper()
	page, err := os.ReadFile("../../" + path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	_, section, ok := strings.Cut(string(page), "\n## "+heading+"\n")
	_, rest, opened := strings.Cut(section, "```"+lang+"\n")
	block, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !opened || !closed || strings.Contains(section[:len(section)-len(rest)], "\n## ") {
		t.Fatalf("%s: no %s block in section %s", path, lang, heading)
	}
	return block
}

// goFunc returns the source of the function name declared in the Go file
// at path, its doc comment included, and its body's statements one tab
// less indented.
func goFunc(t *testing.T, path, name string) (decl, body string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != name {
			continue
		}
		from := fn.Pos()
		if fn.Doc != nil {
			from = fn.Doc.Pos()
		}
		decl = string(src[fset.Position(from).Offset:fset.Position(fn.End()).Offset])
		inner := string(src[fset.Position(fn.Body.Lbrace).Offset+2 : fset.Position(fn.Body.Rbrace).Offset-1])
		return decl, strings.ReplaceAll("\n"+inner, "\n\t", "\n")[1:]
	}
	t.Fatalf("%s declares no func %s", path, name)
	return "", ""
}

// tryIt returns the commands of the README's "Try it" block, a
// continued line joined to its next.
func tryIt(t *testing.T) []string {
	t.Helper()
	block := docBlock(t, "README.md", "Try it", "sh")
	var cmds []string
	for line := range strings.SplitSeq(strings.ReplaceAll(block, "\\\n", ""), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// TestReadmeTryIt runs the README's Try it block, as it stands, against
// lapse serve on loopback with no API token (the first run): on a free
// port in place of 8080, with the template's ID where the README writes
// tpl_…. Each command must answer what its comment says.
func TestReadmeTryIt(t *testing.T) {
	s := start(t, sqliteBackend.store(t))
	addr := strings.TrimPrefix(s.base, "http://")
	var tpl string
	for _, cmd := range tryIt(t) {
		want := ""
		if _, comment, ok := strings.Cut(cmd, "# "); ok {
			want = comment
		}
		line := strings.ReplaceAll(cmd, "localhost:8080", addr)
		line = strings.ReplaceAll(line, "tpl_…", tpl)
		out, err := exec.Command("bash", "-c", line).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd, err, out)
		}
		got := string(out)
		if tpl == "" && strings.Contains(cmd, "/v1/templates") {
			m := regexp.MustCompile(`"id":"(tpl_[^"]+)"`).FindStringSubmatch(got)
			if m == nil {
				t.Fatalf("%s: got %s, want a template", cmd, got)
			}
			tpl = m[1]
		}
		for w := range strings.SplitSeq(want, ", ") {
			if w != "" && !strings.Contains(got, w) {
				t.Fatalf("%s: got %s, want %s", cmd, got, w)
			}
		}
		if strings.Contains(cmd, "grep ^lapse_") && !strings.HasPrefix(got, "lapse_") {
			t.Fatalf("%s: got %q, want lapse's metrics", cmd, got)
		}
		t.Logf("%s\n%s", cmd, got)
	}
	if tpl == "" {
		t.Fatalf("the Try it block made no template")
	}
}

// readmeClient is the README's Go client example, word for word but for
// lapseURL where the README writes "http://127.0.0.1:8080"
// (TestReadmeGoClient checks both).
func readmeClient(ctx context.Context, lapseURL, templateID string) error {
	c, err := client.New(lapseURL, client.WithToken(os.Getenv("LAPSE_TOKEN")))
	if err != nil {
		return err
	}
	cp, err := c.Claim(ctx, "alice", client.ClaimParams{TemplateID: templateID})
	if client.IsSlug(err, client.SlugLimitReached) {
		return nil // alice holds her share already
	} else if err != nil {
		return err
	}
	_, err = c.Lock(ctx, cp.ID, client.LockParams{OrderID: "order-1", TTL: client.Duration(15 * time.Minute)})
	return err // a *client.Problem: client.SlugCouponExpired at or past its expires_at
}

// TestReadmeGoClient checks that the README's Go client example is
// readmeClient's body, then runs it twice against lapse serve, on a
// template of one coupon a user: alice ends with one coupon, locked for
// order-1, the second run stopping at limit-reached without an error.
func TestReadmeGoClient(t *testing.T) {
	_, body := goFunc(t, "readme_test.go", "readmeClient")
	body = strings.ReplaceAll(body, "client.New(lapseURL,", `client.New("http://127.0.0.1:8080",`)
	if want := docBlock(t, "README.md", "Go client", "go"); body != want {
		t.Fatalf("the README's Go client example:\n%s\nis not readmeClient's body:\n%s", want, body)
	}

	s := start(t, sqliteBackend.store(t))
	ctx := context.Background()
	t.Setenv("LAPSE_TOKEN", "")
	tpl := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: "¥20 off", Value: 2000, PerUserLimit: 1,
		Validity: client.Validity{Duration: client.Duration(72 * time.Hour)}})).On(t)
	for range 2 {
		if err := readmeClient(ctx, s.base, tpl.ID); err != nil {
			t.Fatalf("readmeClient: %v", err)
		}
	}
	c, err := client.New(s.base)
	if err != nil {
		t.Fatal(err)
	}
	var coupons []string
	for cp, err := range c.Wallet(ctx, "alice", client.WalletQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		coupons = append(coupons, cp.ID+" "+string(cp.Status)+" "+cp.OrderID)
	}
	if len(coupons) != 1 || !strings.HasSuffix(coupons[0], " locked order-1") {
		t.Fatalf("alice's coupons: %v, want one, locked for order-1", coupons)
	}
}
