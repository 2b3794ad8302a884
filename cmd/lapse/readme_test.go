package main

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
)

// readmeBlock returns the code block, of the language lang, that opens
// the README's section named heading.
func readmeBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatalf("read README: %v", err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## "+heading+"\n")
	_, rest, opened := strings.Cut(section, "```"+lang+"\n")
	block, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !opened || !closed || strings.Contains(section[:len(section)-len(rest)], "\n## ") {
		t.Fatalf("README: no %s block in section %s", lang, heading)
	}
	return block
}

// tryIt returns the commands of the README's "Try it" block, a
// continued line joined to its next.
func tryIt(t *testing.T) []string {
	t.Helper()
	block := readmeBlock(t, "Try it", "sh")
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
func readmeClient(ctx context.Context, lapseURL string) error {
	c, err := client.New(lapseURL, client.WithToken(os.Getenv("LAPSE_TOKEN")))
	if err != nil {
		return err
	}
	tpl, err := c.CreateTemplate(ctx, client.NewTemplate{Name: "¥20 off", Value: 2000,
		Validity: client.Validity{Duration: client.Duration(72 * time.Hour)}})
	if err != nil {
		return err
	}
	cp, err := c.Claim(ctx, "alice", client.ClaimParams{TemplateID: tpl.ID})
	if client.IsSlug(err, client.SlugLimitReached) {
		return nil // alice holds her share already
	} else if err != nil {
		return err
	}
	_, err = c.Lock(ctx, cp.ID, client.LockParams{OrderID: "order-1", TTL: client.Duration(15 * time.Minute)})
	return err // client.SlugCouponExpired at or past its expires_at
}

// TestReadmeGoClient checks that the README's Go client example is
// readmeClient's body, then runs it against lapse serve: alice ends
// with a coupon locked for order-1.
func TestReadmeGoClient(t *testing.T) {
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, fn, _ := strings.Cut(string(src), "\nfunc readmeClient(ctx context.Context, lapseURL string) error {\n")
	body, _, _ := strings.Cut(fn, "\n}\n")
	body = strings.ReplaceAll("\n"+body, "\n\t", "\n")[1:]
	body = strings.ReplaceAll(body, "client.New(lapseURL,", `client.New("http://127.0.0.1:8080",`)
	if want := readmeBlock(t, "Go client", "go"); body != want {
		t.Fatalf("the README's Go client example:\n%s\nis not readmeClient's body:\n%s", want, body)
	}

	s := start(t, sqliteBackend.store(t))
	ctx := context.Background()
	t.Setenv("LAPSE_TOKEN", "")
	if err := readmeClient(ctx, s.base); err != nil {
		t.Fatalf("readmeClient: %v", err)
	}
	c, err := client.New(s.base)
	if err != nil {
		t.Fatal(err)
	}
	var locked []string
	for cp, err := range c.Wallet(ctx, "alice", client.WalletQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		if cp.Status == "locked" && cp.OrderID == "order-1" {
			locked = append(locked, cp.ID)
		}
	}
	if len(locked) != 1 {
		t.Fatalf("alice's coupons locked for order-1: %v, want one", locked)
	}
}
