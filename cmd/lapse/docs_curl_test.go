package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
)

// shBlock matches a sh block of a Markdown page, its body in group 1.
var shBlock = regexp.MustCompile("(?m)^```sh\n((?s:.*?))^```$")

// TestDocsCurl runs every sh block of the manual that calls lapse's API
// with curl, as the page has it, against a lapse serve of its own on
// loopback with no API token, as TestReadmeTryIt does the README's: on a
// free port in place of 8080; for tpl_… and cpn_…, a template and its
// coupons for u1 and u2, made before the block, until an answer of the
// block names another, and for op_… the operation an answer names; a
// command commented "×N" N times; a thousand users where a page pipes a
// million (seq 1 1000000). Each command must exit 0 and answer no
// problem, and a "# → answer" line after one must be in its answer.
func TestDocsCurl(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, page := range pages {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range shBlock.FindAllStringSubmatch(string(raw), -1) {
			if !strings.Contains(m[1], "curl -s") {
				continue
			}
			blocks++
			t.Run(filepath.Base(page)+"#"+strconv.Itoa(i+1), func(t *testing.T) { runCurlBlock(t, m[1]) })
		}
	}
	if blocks < 4 {
		t.Errorf("ran %d curl blocks of the manual, want its 4 or more", blocks)
	}
}

// runCurlBlock runs one sh block of the manual as TestDocsCurl says.
func runCurlBlock(t *testing.T, block string) {
	s := start(t, sqliteBackend.store(t))
	ctx := t.Context()
	tpl := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: "docs", Value: 500,
		Validity: client.Validity{Duration: client.Duration(time.Hour)}})).On(t)
	ids := docIDs{"tpl_…": {tpl.ID}}
	for _, u := range []string{"u1", "u2"} {
		cp := clienttest.Must(s.api.Claim(ctx, u, client.ClaimParams{TemplateID: tpl.ID})).On(t)
		ids["cpn_…"] = append(ids["cpn_…"], cp.ID)
	}
	addr := strings.TrimPrefix(s.base, "http://")
	for _, c := range shellLines(block) {
		times := 1
		if n, ok := strings.CutPrefix(c.comment, "×"); ok {
			if times, _ = strconv.Atoi(n); times < 1 {
				t.Fatalf("%s: a repeat count that is no number", c.cmd)
			}
		}
		cmd := strings.ReplaceAll(c.cmd, "seq 1 1000000", "seq 1 1000")
		for range times {
			got := runDocCommand(t, addr, cmd, ids)
			if strings.Contains(got, `"/problems/`) {
				t.Fatalf("%s: answered a problem: %s", c.cmd, got)
			}
			if !strings.Contains(got, c.answer) {
				t.Fatalf("%s: answered %s, where the page shows %s", c.cmd, got, c.answer)
			}
		}
	}
}
