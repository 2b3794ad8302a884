package client_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/lapsehq/lapse/client"
)

// These examples compile but do not run: they need a lapse server (lapse
// serve). The server's module runs the first, with its output, against a
// real one (internal/clientsuite), and tests every call.

func Example() {
	ctx := context.Background()
	c, err := client.New("http://127.0.0.1:8080", client.WithToken(os.Getenv("LAPSE_TOKEN")))
	if err != nil {
		log.Fatal(err)
	}
	tpl, err := c.CreateTemplate(ctx, client.NewTemplate{Name: "¥20 off", Value: 2000, PerUserLimit: 1,
		Validity: client.Validity{Duration: client.Duration(72 * time.Hour)}})
	if err != nil {
		log.Fatal(err)
	}
	cp, err := c.Claim(ctx, "alice", client.ClaimParams{TemplateID: tpl.ID})
	switch {
	case client.IsSlug(err, client.SlugLimitReached):
		fmt.Println("alice already holds one")
	case err != nil:
		log.Fatal(err)
	default:
		fmt.Println(cp.Status, cp.ExpiresAt)
	}
}

// An order that spends a coupon, then its payment. Naming the
// Idempotency-Key makes the payment safe to send again after a crash of
// the caller: the server answers the same key with its first answer.
func ExampleClient_CreateOrder() {
	ctx := context.Background()
	c, err := client.New("http://127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	couponID := "cpn_..." // a coupon alice holds
	o, err := c.CreateOrder(ctx, client.NewOrder{UserID: "alice",
		Items:     []client.Item{{SKU: "tea", Qty: 2, UnitPrice: 1500}},
		CouponIDs: []string{couponID}, Timeout: client.Duration(15 * time.Minute)})
	if err != nil {
		log.Fatal(err)
	}
	paid, err := c.Pay(ctx, o.ID, client.PayParams{PaymentID: "pay-42", Amount: o.AmountDue, IdempotencyKey: "pay-42"})
	if client.IsSlug(err, client.SlugOrderClosed) {
		fmt.Println("too late: refund the payment")
		return
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(paid.Status == client.OrderPaid)
}

// Following the event feed: read every expiry from the start, then keep
// the cursor to read only what comes next.
func ExampleClient_Feed() {
	ctx := context.Background()
	c, err := client.New("http://127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	q := client.EventQuery{Type: client.EventCouponExpired, Limit: 500}
	for e, err := range c.Feed(ctx, q) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e.Subject, e.Time)
	}
	next, err := c.Cursor(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("from now on, read after", next)
}

// A bulk issuance to a list of millions, one user ID a line of a file,
// streamed as NDJSON: no list in memory, and no per-request timeout.
func ExampleClient_IssueStream() {
	ctx := context.Background()
	c, err := client.New("http://127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	users := func(yield func(string) bool) {
		f, err := os.Open("users.txt")
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		for sc := bufio.NewScanner(f); sc.Scan(); {
			if !yield(sc.Text()) {
				return
			}
		}
	}
	res, err := c.IssueStream(ctx, "tpl_...", client.IssueStreamParams{Users: users, IdempotencyKey: "campaign-11-11"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Issued, "issued;", res.RefusedCount[client.SlugSoldOut], "refused sold out")
}

// A bulk void of a template's coupons, which runs in the server's
// background, followed to its end.
func ExampleClient_VoidTemplate() {
	ctx := context.Background()
	c, err := client.New("http://127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	op, err := c.VoidTemplate(ctx, "tpl_...", client.VoidTemplateParams{Reason: "code leaked", IdempotencyKey: "void-leak-1"})
	if err != nil {
		log.Fatal(err)
	}
	op, err = c.WaitOperation(ctx, op.ID, func(op client.Operation) {
		fmt.Printf("%d/%d\n", op.Progress.Done, op.Progress.Total)
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(op.Counts.Voided, "voided,", op.Counts.PendingLocked, "to void when their locks end")
}

// Branching on a refusal: by slug, or on the whole problem document.
func ExampleIsSlug() {
	ctx := context.Background()
	c, err := client.New("http://127.0.0.1:8080")
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.Lock(ctx, "cpn_...", client.LockParams{OrderID: "order-1", TTL: client.Duration(15 * time.Minute)})
	var p *client.Problem
	switch {
	case client.IsSlug(err, client.SlugCouponExpired):
		fmt.Println("the coupon expired")
	case errors.As(err, &p):
		fmt.Println(p.Status, p.Slug, p.Detail)
	case err != nil:
		log.Fatal(err) // the network, after the retries
	}
}

// Retrying harder than DefaultRetry, for a batch job that may wait.
func ExampleWithRetry() {
	c, err := client.New("http://127.0.0.1:8080", client.WithRetry(client.Retry{
		Attempts: 8, Backoff: 500 * time.Millisecond, MaxBackoff: 30 * time.Second, Jitter: 0.5}))
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Readyz(context.Background()); err != nil {
		log.Fatal(err)
	}
}
