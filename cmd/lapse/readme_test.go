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

// shellLine is a command of a sh block of the docs: a line continued by
// a backslash or a trailing pipe joined to its next, its trailing comment,
// and the answer a "# → " line after it shows.
type shellLine struct{ cmd, comment, answer string }

// shellLines returns the commands of a sh block.
func shellLines(block string) []shellLine {
	var out []shellLine
	pending := ""
	for line := range strings.SplitSeq(strings.ReplaceAll(block, "\\\n", ""), "\n") {
		line = strings.TrimSpace(line)
		if answer, ok := strings.CutPrefix(line, "# → "); ok && len(out) > 0 {
			out[len(out)-1].answer = answer
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasSuffix(line, "|") {
			pending += line + " "
			continue
		}
		line, pending = pending+line, ""
		_, comment, _ := strings.Cut(line, "# ")
		out = append(out, shellLine{cmd: line, comment: comment})
	}
	return out
}

// docIDs are the IDs the docs' commands write as placeholders (tpl_…,
// cpn_…, op_…): the i-th placeholder of a kind in a command stands for
// the i-th ID of its list, round.
type docIDs map[string][]string

// answerID matches an answer that is one template, coupon or operation.
var answerID = regexp.MustCompile(`^\{"id":"((tpl|cpn|op)_[^"]+)"`)

// runDocCommand runs a command of the docs with bash against the lapse
// at addr, in place of localhost:8080, with the IDs of ids for their
// placeholders, and returns its output; it fails t unless the command
// exits 0. An answer that is one template, coupon or operation makes its
// ID the one its placeholder stands for from then on.
func runDocCommand(t *testing.T, addr, cmd string, ids docIDs) string {
	t.Helper()
	line := strings.ReplaceAll(cmd, "localhost:8080", addr)
	for p, vals := range ids {
		for i := 0; strings.Contains(line, p) && len(vals) > 0; i++ {
			line = strings.Replace(line, p, vals[i%len(vals)], 1)
		}
	}
	out, err := exec.Command("bash", "-c", line).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	if m := answerID.FindStringSubmatch(string(out)); m != nil {
		ids[m[2]+"_…"] = []string{m[1]}
	}
	t.Logf("%s\n%s", cmd, out)
	return string(out)
}

// TestReadmeTryIt runs the README's Try it block, as it stands, against
// lapse serve on loopback with no API token (the first run): on a free
// port in place of 8080, with the template's ID where the README writes
// tpl_…. Each command must answer what its comment says.
func TestReadmeTryIt(t *testing.T) {
	s := start(t, sqliteBackend.store(t))
	addr := strings.TrimPrefix(s.base, "http://")
	ids := docIDs{}
	for _, c := range shellLines(docBlock(t, "README.md", "Try it", "sh")) {
		got := runDocCommand(t, addr, c.cmd, ids)
		for w := range strings.SplitSeq(c.comment, ", ") {
			if w != "" && !strings.Contains(got, w) {
				t.Fatalf("%s: got %s, want %s", c.cmd, got, w)
			}
		}
		if strings.Contains(c.cmd, "grep ^lapse_") && !strings.HasPrefix(got, "lapse_") {
			t.Fatalf("%s: got %q, want lapse's metrics", c.cmd, got)
		}
	}
	if ids["tpl_…"] == nil {
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
