package clientsuite_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/store"
)

func Example() {
	// A lapse server; in production, lapse serve's URL.
	dir, _ := os.MkdirTemp("", "lapse-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	d, err := sqlite.Open(ctx, filepath.Join(dir, "lapse.db"), sqlite.Options{})
	if err != nil {
		panic(err)
	}
	st := store.New(d, store.Options{})
	defer st.Close()
	srv := httptest.NewServer(httpapi.New(httpapi.Config{Store: st, Now: now}))
	defer srv.Close()

	c, err := client.New(srv.URL) // client.WithToken(...) once tokens exist
	if err != nil {
		panic(err)
	}
	tpl, err := c.CreateTemplate(ctx, client.NewTemplate{Name: "¥20 off", Value: 2000, PerUserLimit: 1,
		Validity: client.Validity{Duration: client.Duration(72 * time.Hour)}})
	if err != nil {
		panic(err)
	}
	cp, err := c.Claim(ctx, "alice", client.ClaimParams{TemplateID: tpl.ID})
	if err != nil {
		panic(err)
	}
	fmt.Println(cp.Status, cp.ExpiresAt.Sub(cp.ClaimedAt))

	_, err = c.Claim(ctx, "alice", client.ClaimParams{TemplateID: tpl.ID})
	if client.IsSlug(err, client.SlugLimitReached) {
		fmt.Println("alice holds the one coupon she may")
	}
	for e, err := range c.Feed(ctx, client.EventQuery{Limit: 100}) {
		if err != nil {
			panic(err)
		}
		fmt.Println(e.Type)
	}
	// Output:
	// unused 72h0m0s
	// alice holds the one coupon she may
	// coupon.claimed
}
