package httpapi

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/backendtest"
)

// Values the parity rows send.
var (
	// long is a user ID of 300 bytes that sorts after u1 and u2.
	long = "u" + strings.Repeat("z", 299)
	// longKey is a random printable Idempotency-Key of 3,000 bytes, the
	// same on every run.
	longKey = func() string {
		r := rand.New(rand.NewPCG(1, 2))
		b := make([]byte, 3000)
		for i := range b {
			b[i] = byte('!' + r.IntN('~'-'!'+1))
		}
		return string(b)
	}()
	// manyUsers is an issue body of more users than one batch of Issue
	// takes, long last in sorted order: a store that checked IDs batch by
	// batch would have committed the first batch before refusing it.
	manyUsers = func() string {
		var b strings.Builder
		b.WriteString(`{"user_ids": [`)
		for i := range store.DefaultIssueBatch + 1 {
			fmt.Fprintf(&b, `"u%05d", `, i)
		}
		b.WriteString(`"` + long + `"]}`)
		return b.String()
	}()
	// past is an hour before the clock.
	past = ms(t0.Add(-time.Hour))
)

// Steps that make what rows act on: a template of hour-long coupons
// ({tpl}), a coupon of it claimed by u1 ({cpn}), 100 of SKU a, and u1's
// unpaid order of one a at 1,500 ({ord}).
var (
	makeTemplate = step{method: "POST", path: "/v1/templates", body: hourTemplate, want: 201, save: map[string]string{"tpl": "id"}}
	makeCoupon   = step{method: "POST", path: "/v1/users/u1/coupons", body: `{"template_id": "{tpl}"}`, want: 201, save: map[string]string{"cpn": "id"}}
	makeSKU      = step{method: "PUT", path: "/v1/skus/a", body: `{"stock": 100}`, want: 200}
	makeOrder    = step{method: "POST", path: "/v1/orders", body: `{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1500}]}`, want: 201, save: map[string]string{"ord": "id"}}
	// keepFeed and sameFeed read the event feed: the same page twice shows
	// that the requests between changed nothing that makes an event.
	keepFeed = step{method: "GET", path: "/v1/events?limit=1000", want: 200, keep: "feed"}
	sameFeed = step{method: "GET", path: "/v1/events?limit=1000", want: 200, same: "feed"}
)

// refused is a request answered 422 invalid.
func refused(method, path, body string, header ...string) step {
	return step{method: method, path: path, body: body, header: header, want: 422, slug: "invalid"}
}

// TestParity sends the same requests, good and bad, to lapse over SQLite,
// PostgreSQL and MySQL/MariaDB: each must answer as API.md says, and all
// three alike.
func TestParity(t *testing.T) {
	bs := backendtest.All(t)
	rows := []struct {
		name  string
		steps []step
	}{
		{"bulk issue refused whole", []step{
			makeTemplate,
			refused("POST", "/v1/templates/{tpl}/issue", `{"user_ids": ["u1", "u2", "`+long+`"]}`),
			refused("POST", "/v1/templates/{tpl}/issue", manyUsers),
			refused("POST", "/v1/templates/{tpl}/issue", "{\"user_id\": \"u1\"}\n{\"user_id\": \""+long+"\"}\n", "Content-Type", "application/x-ndjson"),
			refused("POST", "/v1/templates/{tpl}/issue", `{"user_ids": ["u1", "z\u0000"]}`),
			{method: "GET", path: "/v1/templates/{tpl}", want: 200, check: counts(0, 0)},
			refused("POST", "/v1/templates/{tpl}/issue", `{"user_ids": ["u1", "u2", "`+long+`"]}`, "Idempotency-Key", "issue-1"),
			{method: "POST", path: "/v1/templates/{tpl}/issue", body: `{"user_ids": ["u1", "u2"]}`, header: []string{"Idempotency-Key", "issue-1"}, want: 200, check: field("issued", 2.0), keep: "issued"},
			{method: "POST", path: "/v1/templates/{tpl}/issue", body: `{"user_ids": ["u1", "u2"]}`, header: []string{"Idempotency-Key", "issue-1"}, want: 200, same: "issued"},
			{method: "GET", path: "/v1/templates/{tpl}", want: 200, check: counts(2, 0)},
			{method: "GET", path: "/v1/users/" + long + "z/coupons", want: 422, slug: "invalid"},
			{method: "GET", path: "/v1/events?limit=1000", want: 200, check: eventCount(2)},
		}},
		{"money bounds", []step{
			refused("POST", "/v1/templates", `{"name": "n", "value": 9223372036854775807, "validity": {"duration": "1h"}}`),
			refused("POST", "/v1/templates", fmt.Sprintf(`{"name": "n", "value": %d, "validity": {"duration": "1h"}}`, input.MaxMoney+1)),
			refused("POST", "/v1/templates", fmt.Sprintf(`{"name": "n", "value": 1, "min_spend": %d, "validity": {"duration": "1h"}}`, input.MaxMoney+1)),
			{method: "POST", path: "/v1/templates", body: fmt.Sprintf(`{"name": "max", "value": %d, "validity": {"duration": "1h"}}`, input.MaxMoney), want: 201, save: map[string]string{"tpl": "id"}},
			{method: "POST", path: "/v1/users/u1/coupons", body: `{"template_id": "{tpl}"}`, want: 201, save: map[string]string{"c1": "id"}},
			{method: "POST", path: "/v1/users/u1/coupons", body: `{"template_id": "{tpl}"}`, want: 201, save: map[string]string{"c2": "id"}},
			makeSKU,
			keepFeed,
			refused("POST", "/v1/orders", `{"user_id": "u1", "items": [{"sku": "a", "qty": 2, "unit_price": 9223372036854775807}]}`),
			refused("POST", "/v1/orders", `{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 9223372036854775807}, {"sku": "a", "qty": 1, "unit_price": 9223372036854775807}]}`),
			sameFeed,
			{method: "POST", path: "/v1/orders", body: `{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1500}], "coupon_ids": ["{c1}", "{c2}"]}`,
				want: 201, save: map[string]string{"ord": "id"}, check: money(1500, 1500)},
			{method: "GET", path: "/v1/orders/{ord}", want: 200, check: money(1500, 1500)},
			{method: "POST", path: "/v1/orders/{ord}/pay", body: `{"payment_id": "p1", "amount": 0}`, want: 200, check: all(money(1500, 1500), field("status", "paid"))},
		}},
		{"long and broken IDs, NUL, long keys", []step{
			makeTemplate, makeCoupon, makeSKU, makeOrder, keepFeed,
			refused("GET", "/v1/coupons/"+long, ""),
			refused("GET", "/v1/templates/"+long, ""),
			refused("GET", "/v1/users/"+long+"/coupons", ""),
			refused("GET", "/v1/orders/"+long, ""),
			refused("GET", "/v1/skus/"+long, ""),
			refused("GET", "/v1/coupons/%FF", ""),
			refused("GET", "/v1/coupons/%00", ""),
			refused("GET", "/v1/templates/%FF", ""),
			refused("GET", "/v1/orders/%00", ""),
			refused("GET", "/v1/skus/a%FF", ""),
			refused("GET", "/v1/users/%FF/coupons", ""),
			refused("GET", "/v1/users/u%00/coupons", ""),
			refused("POST", "/v1/users/"+long+"/coupons", `{"template_id": "{tpl}"}`),
			refused("POST", "/v1/users/%FF/coupons", `{"template_id": "{tpl}"}`),
			refused("POST", "/v1/users/u1%00/coupons", `{"template_id": "{tpl}"}`),
			refused("POST", "/v1/users/u1/coupons", `{"template_id": "`+long+`"}`),
			refused("POST", "/v1/users/u1/coupons", `{"template_id": "{tpl}\u0000"}`),
			refused("POST", "/v1/coupons/%FF/void", `{"reason": "x"}`),
			refused("POST", "/v1/coupons/%00/lock", `{"order_id": "o1"}`),
			refused("POST", "/v1/coupons/{cpn}/lock", `{"order_id": "`+long+`"}`),
			refused("POST", "/v1/coupons/{cpn}/lock", `{"order_id": "o\u0000"}`),
			refused("POST", "/v1/coupons/{cpn}/void", `{"reason": "r\u0000"}`),
			refused("POST", "/v1/orders/%FF/pay", `{"payment_id": "p1", "amount": 1500}`),
			refused("POST", "/v1/orders/{ord}/pay", `{"payment_id": "`+long+`", "amount": 1500}`),
			refused("POST", "/v1/orders/{ord}/pay", `{"payment_id": "p\u0000", "amount": 1500}`),
			refused("POST", "/v1/orders/"+long+"/cancel", ""),
			refused("PUT", "/v1/skus/"+long, `{"stock": 1}`),
			refused("PUT", "/v1/skus/%FF", `{"stock": 1}`),
			refused("POST", "/v1/orders", `{"user_id": "`+long+`", "items": [{"sku": "a", "qty": 1, "unit_price": 1}]}`),
			refused("POST", "/v1/orders", `{"user_id": "u\u0000", "items": [{"sku": "a", "qty": 1, "unit_price": 1}]}`),
			refused("POST", "/v1/orders", `{"user_id": "u1", "items": [{"sku": "`+long+`", "qty": 1, "unit_price": 1}]}`),
			refused("POST", "/v1/orders", `{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1}], "coupon_ids": ["`+long+`"]}`),
			refused("POST", "/v1/templates", `{"name": "`+strings.Repeat("n", 300)+`", "value": 1, "validity": {"duration": "1h"}}`),
			refused("POST", "/v1/templates", `{"name": "`+strings.Repeat("é", input.MaxName+1)+`", "value": 1, "validity": {"duration": "1h"}}`),
			refused("POST", "/v1/templates", `{"name": "a\u0000b", "value": 1, "validity": {"duration": "1h"}}`),
			refused("POST", "/v1/users/u1/coupons", `{"template_id": "{tpl}"}`, "Idempotency-Key", longKey),
			// A GET takes no key; one sent anyway is no server error.
			{method: "GET", path: "/v1/coupons/{cpn}", header: []string{"Idempotency-Key", longKey}},
			refused("POST", "/v1/users/u1/coupons", `{"template_id": "{tpl}"}`, "Idempotency-Key", strings.Repeat("k", input.MaxID+1)),
			sameFeed,
			{method: "GET", path: "/v1/coupons/{cpn}", want: 200, check: field("status", "unused")},
			{method: "GET", path: "/v1/users/u1/coupons", want: 200, check: length("coupons", 1)},
			{method: "POST", path: "/v1/templates", body: `{"name": "` + strings.Repeat("é", input.MaxName) + `", "value": 1, "validity": {"duration": "1h"}}`, want: 201},
			{method: "POST", path: "/v1/users/u1/coupons", body: `{"template_id": "{tpl}"}`, header: []string{"Idempotency-Key", strings.Repeat("k", input.MaxID)}, want: 201},
		}},
		{"trailing space", []step{
			makeTemplate, makeCoupon,
			refused("GET", "/v1/coupons/{cpn}%20", ""),
			refused("GET", "/v1/coupons/%20{cpn}", ""),
			refused("POST", "/v1/coupons/{cpn}%20/void", `{"reason": "x"}`),
			refused("POST", "/v1/coupons/{cpn}%20/lock", `{"order_id": "o1"}`),
			refused("GET", "/v1/users/u1%20/coupons", ""),
			refused("POST", "/v1/users/u1%20/coupons", `{"template_id": "{tpl}"}`),
			refused("GET", "/v1/templates/{tpl}%20", ""),
			{method: "GET", path: "/v1/coupons/{cpn}", want: 200, check: field("status", "unused")},
			{method: "GET", path: "/v1/templates/{tpl}", want: 200, check: counts(1, 0)},
		}},
		{"durations in whole milliseconds", []step{
			refused("POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "999us"}}`),
			refused("POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1ns"}}`),
			refused("POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1500001us"}}`),
			refused("POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1h"}, "reminders": ["1500us"]}`),
			// A refusal is not kept under its key: the corrected request
			// goes through under the same one.
			refused("POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1500us"}}`, "Idempotency-Key", "tpl-1"),
			{method: "POST", path: "/v1/templates", body: `{"name": "n", "value": 1, "validity": {"duration": "1500ms"}}`, header: []string{"Idempotency-Key", "tpl-1"},
				want: 201, save: map[string]string{"tpl": "id"}, check: validity("1.5s")},
			{method: "GET", path: "/v1/templates/{tpl}", want: 200, check: validity("1.5s")},
			makeCoupon, makeSKU,
			refused("POST", "/v1/coupons/{cpn}/lock", `{"order_id": "o1", "ttl": "1ns"}`),
			refused("POST", "/v1/orders", `{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1}], "timeout": "1ns"}`),
		}},
		{"lock ttl capped", []step{
			makeTemplate, makeCoupon,
			refused("POST", "/v1/coupons/{cpn}/lock", `{"order_id": "o1", "ttl": "87600h"}`),
			refused("POST", "/v1/coupons/{cpn}/lock", `{"order_id": "o1", "ttl": "30m1ms"}`),
			{method: "GET", path: "/v1/coupons/{cpn}", want: 200, check: field("status", "unused")},
			{method: "POST", path: "/v1/coupons/{cpn}/lock", body: `{"order_id": "o1", "ttl": "30m"}`, want: 200, check: field("status", "locked")},
		}},
		{"lapse orders' coupons, late payments with long IDs", []step{
			makeTemplate, makeCoupon, makeSKU,
			{method: "POST", path: "/v1/users/u1/coupons", body: `{"template_id": "{tpl}"}`, want: 201, save: map[string]string{"free": "id"}},
			{method: "POST", path: "/v1/orders", body: `{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1500}], "coupon_ids": ["{cpn}"]}`, want: 201, save: map[string]string{"ord": "id"}},
			keepFeed,
			// The wallet routes refuse a lapse order: its coupons move only with it.
			{method: "POST", path: "/v1/coupons/{cpn}/redeem", body: `{"order_id": "{ord}"}`, want: 409, slug: "invalid-state"},
			{method: "POST", path: "/v1/coupons/{cpn}/unlock", body: `{"order_id": "{ord}"}`, want: 409, slug: "invalid-state"},
			{method: "POST", path: "/v1/coupons/{free}/lock", body: `{"order_id": "{ord}", "ttl": "15m"}`, want: 409, slug: "invalid-state"},
			{method: "POST", path: "/v1/coupons/{free}/redeem", body: `{"order_id": "{ord}"}`, want: 409, slug: "invalid-state"},
			sameFeed,
			{method: "POST", path: "/v1/orders/{ord}/pay", body: `{"payment_id": "p1", "amount": 0}`, want: 200, check: field("status", "paid")},
			{method: "POST", path: "/v1/coupons/{cpn}/refund", body: `{"order_id": "{ord}"}`, want: 409, slug: "invalid-state"},
			{method: "GET", path: "/v1/coupons/{cpn}", want: 200, check: field("status", "used")},
			{method: "POST", path: "/v1/coupons/{free}/redeem", body: `{"order_id": "outside-1"}`, want: 200, check: field("status", "used")},
			// A late payment with a long payment_id is refused and recorded once.
			{method: "POST", path: "/v1/orders", body: `{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1500}]}`, want: 201, save: map[string]string{"late": "id"}},
			{method: "POST", path: "/v1/orders/{late}/cancel", want: 200},
			{method: "POST", path: "/v1/orders/{late}/pay", body: `{"payment_id": "pi_3MtwBwLkdIwHu7ix28a3tqPa", "amount": 1500}`, want: 409, slug: "order-closed"},
			{method: "POST", path: "/v1/orders/{late}/pay", body: `{"payment_id": "pi_3MtwBwLkdIwHu7ix28a3tqPa", "amount": 1500}`, want: 409, slug: "order-closed"},
			{method: "POST", path: "/v1/orders/{late}/pay", body: `{"payment_id": "` + strings.Repeat("p", input.MaxID) + `", "amount": 1500}`, want: 409, slug: "order-closed"},
			{method: "GET", path: "/v1/events?limit=1000", want: 200, check: eventsOfType(store.EventOrderLatePayment, 2)},
		}},
		{"blank IDs, plain text, past ends_at", []step{
			makeTemplate, makeCoupon, makeSKU, makeOrder, keepFeed,
			refused("POST", "/v1/users/%20%20/coupons", `{"template_id": "{tpl}"}`),
			refused("GET", "/v1/users/%09/coupons", ""),
			refused("GET", "/v1/coupons/%20", ""),
			refused("GET", "/v1/skus/%20%20", ""),
			refused("POST", "/v1/coupons/{cpn}/lock", `{"order_id": "  "}`),
			refused("POST", "/v1/orders", `{"user_id": " ", "items": [{"sku": "a", "qty": 1, "unit_price": 1}]}`),
			refused("POST", "/v1/orders/{ord}/pay", `{"payment_id": "\t", "amount": 1500}`),
			refused("POST", "/v1/templates", `{"name": "   ", "value": 1, "validity": {"duration": "1h"}}`),
			refused("POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"ends_at": "`+past+`"}}`),
			{method: "POST", path: "/v1/templates", body: hourTemplate, header: []string{"Content-Type", "text/plain"}, want: 400, slug: "malformed"},
			{method: "POST", path: "/v1/users/u1/coupons", body: "template_id=x", header: []string{"Content-Type", "text/plain"}, want: 400, slug: "malformed"},
			sameFeed,
			{method: "GET", path: "/v1/coupons/{cpn}", want: 200, check: field("status", "unused")},
		}},
		{"void reason", []step{
			makeTemplate, makeCoupon,
			refused("POST", "/v1/coupons/{cpn}/void", `{"reason": "`+strings.Repeat("a", input.MaxReason+1)+`"}`),
			{method: "GET", path: "/v1/coupons/{cpn}", want: 200, check: field("status", "unused")},
			{method: "POST", path: "/v1/coupons/{cpn}/void", body: `{"reason": "` + strings.Repeat("é", input.MaxReason) + `"}`, want: 200, check: field("status", "voided")},
			{method: "GET", path: "/v1/events?limit=1000", want: 200, check: eventCount(2)},
		}},
		{"concurrent claims under one key", []step{
			makeTemplate,
			{method: "POST", path: "/v1/users/u1/coupons", body: `{"template_id": "{tpl}"}`, header: []string{"Idempotency-Key", "claim-1"}, concurrent: 24, want: 201},
			{method: "GET", path: "/v1/users/u1/coupons", want: 200, check: length("coupons", 1)},
			{method: "GET", path: "/v1/templates/{tpl}", want: 200, check: counts(1, 0)},
		}},
		{"template change and close", []step{
			makeTemplate, makeCoupon,
			{method: "POST", path: "/v1/users/u2/coupons", body: `{"template_id": "{tpl}"}`, want: 201},
			{method: "PATCH", path: "/v1/templates/{tpl}", body: `{"name": "¥30 off", "value": 3000, "total": 5, "reminders": ["30m", "2h"]}`, want: 200,
				check: all(field("name", "¥30 off"), field("value", 3000.0), field("total", 5.0), length("reminders", 2))},
			keepFeed,
			{method: "GET", path: "/v1/templates/{tpl}", want: 200, keep: "tpl"},
			refused("PATCH", "/v1/templates/{tpl}", `{"total": 1}`),
			refused("PATCH", "/v1/templates/{tpl}", `{"value": 0}`),
			refused("PATCH", "/v1/templates/{tpl}", `{"name": "`+strings.Repeat("é", input.MaxName+1)+`"}`),
			refused("PATCH", "/v1/templates/{tpl}", `{"reminders": ["1500us"]}`),
			{method: "PATCH", path: "/v1/templates/{tpl}", body: `{"name": 5}`, want: 400, slug: "malformed"},
			sameFeed,
			{method: "GET", path: "/v1/templates/{tpl}", want: 200, same: "tpl"},
			{method: "POST", path: "/v1/templates/{tpl}/close", body: `{"reason": "leaked"}`, header: []string{"Idempotency-Key", "close-1"}, want: 200, keep: "closed"},
			{method: "POST", path: "/v1/templates/{tpl}/close", body: `{"reason": "leaked"}`, header: []string{"Idempotency-Key", "close-1"}, want: 200, same: "closed"},
			{method: "POST", path: "/v1/templates/{tpl}/close", want: 200, same: "closed"},
			{method: "GET", path: "/v1/events?limit=1000", want: 200, keep: "closedFeed", check: eventCount(4)},
			{method: "POST", path: "/v1/users/u3/coupons", body: `{"template_id": "{tpl}"}`, want: 409, slug: "not-claimable"},
			{method: "POST", path: "/v1/templates/{tpl}/issue", body: `{"user_ids": ["u3", "u4"]}`, want: 409, slug: "not-claimable"},
			{method: "GET", path: "/v1/events?limit=1000", want: 200, same: "closedFeed"},
			{method: "POST", path: "/v1/coupons/{cpn}/lock", body: `{"order_id": "o1"}`, want: 200, check: field("status", "locked")},
			{method: "POST", path: "/v1/coupons/{cpn}/redeem", body: `{"order_id": "o1"}`, want: 200, check: field("status", "used")},
			{method: "GET", path: "/v1/templates?limit=1", want: 200, check: length("templates", 1)},
			refused("GET", "/v1/templates?limit=0", ""),
			refused("GET", "/v1/templates?after=%FF", ""),
		}},
		{"wallet pages, empty and past-end cursors", []step{
			makeTemplate, makeCoupon,
			{method: "POST", path: "/v1/users/u1/coupons", body: `{"template_id": "{tpl}"}`, want: 201},
			{method: "POST", path: "/v1/users/u1/coupons", body: `{"template_id": "{tpl}"}`, want: 201, save: map[string]string{"last": "id"}},
			{method: "POST", path: "/v1/coupons/{last}/redeem", body: `{"order_id": "o1"}`, want: 200},
			{method: "GET", path: "/v1/users/u1/coupons?limit=2", want: 200, check: isWalletPage(2), save: map[string]string{"next": "next"}},
			{method: "GET", path: "/v1/users/u1/coupons?limit=2&after={next}", want: 200, check: isWalletPage(1)},
			// An empty page answers its cursor as next: here the used one.
			{method: "GET", path: "/v1/users/u1/coupons?limit=2&after={last}", want: 200, check: isWalletPage(0), save: map[string]string{"end": "next"}},
			{method: "GET", path: "/v1/coupons/{end}", want: 200, check: field("status", "used")},
			{method: "GET", path: "/v1/users/u1/coupons?status=unused&limit=1&after={cpn}", want: 200, check: isWalletPage(1)},
			{method: "GET", path: "/v1/users/u1/coupons?status=used&limit=1", want: 200, check: isWalletPage(1)},
			{method: "GET", path: "/v1/users/u1/coupons?after=&include=archived", want: 200, check: isWalletPage(3)},
			{method: "GET", path: "/v1/users/u1/coupons", want: 200, check: isWalletPage(3)},
			refused("GET", "/v1/users/u1/coupons?limit=0", ""),
			refused("GET", "/v1/users/u1/coupons?limit=1001", ""),
			refused("GET", "/v1/users/u1/coupons?after=%20cpn", ""),
			refused("GET", "/v1/users/u1/coupons?after=%FF", ""),
			{method: "GET", path: "/v1/templates?after=", want: 200, check: length("templates", 1)},
			{method: "GET", path: "/v1/events?after=", want: 200, check: eventCount(4)},
			{method: "GET", path: "/v1/events?after=999999999", want: 422, slug: "invalid"},
		}},
		{"fuzz corpus", corpusSteps(t)},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) { runParity(t, bs, row.steps) })
	}
}

// corpusSteps sends every seed of the decoders' fuzz corpus as the body or
// query of its route, after the steps that make what the routes act on.
func corpusSteps(t *testing.T) []step {
	t.Helper()
	steps := []step{makeTemplate, makeCoupon, makeSKU, makeOrder,
		{method: "POST", path: "/v1/templates", body: hourTemplate, want: 201, save: map[string]string{"tpl2": "id"}}}
	actions := []string{coupon.Lock.String(), coupon.Unlock.String(), coupon.Redeem.String(), coupon.Refund.String(), coupon.Void.String()}
	// routes turn a seed of each fuzz target into its requests.
	routes := map[string]func(seed string) []step{
		"FuzzDecodeTemplate": bodyRoute("POST", "/v1/templates", "application/json"),
		"FuzzDecodeClaim":    bodyRoute("POST", "/v1/users/u1/coupons", "application/json"),
		// A second template, so that a close leaves {tpl} claimable for
		// the seeds after it.
		"FuzzDecodeTemplateChange": bodyRoute("PATCH", "/v1/templates/{tpl2}", "application/json"),
		"FuzzDecodeTemplateClose":  bodyRoute("POST", "/v1/templates/{tpl2}/close", "application/json"),
		"FuzzDecodeTemplatesQuery": queryRoute("/v1/templates"),
		"FuzzDecodeTransition": func(seed string) []step {
			var out []step
			for _, act := range actions {
				out = append(out, bodyRoute("POST", "/v1/coupons/{cpn}/"+act, "application/json")(seed)...)
			}
			return out
		},
		"FuzzDecodeEventsQuery": queryRoute("/v1/events"),
		"FuzzDecodeWalletQuery": queryRoute("/v1/users/u1/coupons"),
		"FuzzDecodeArchive":     bodyRoute("POST", "/v1/archive", "application/json"),
		"FuzzDecodeIssueJSON":   bodyRoute("POST", "/v1/templates/{tpl}/issue", "application/json"),
		"FuzzDecodeIssueNDJSON": bodyRoute("POST", "/v1/templates/{tpl}/issue", ndjson),
		"FuzzDecodeCreateOrder": bodyRoute("POST", "/v1/orders", "application/json"),
		"FuzzDecodePay":         bodyRoute("POST", "/v1/orders/{ord}/pay", "application/json"),
		"FuzzDecodeSKU":         bodyRoute("PUT", "/v1/skus/a", "application/json"),
		"FuzzDecodeUser":        bodyRoute("PUT", "/v1/users/u1", "application/json"),
		"FuzzMediaType": func(seed string) []step {
			return bodyRoute("POST", "/v1/users/u1/coupons", seed)(`{"template_id": "{tpl}"}`)
		},
		"FuzzPathID": func(seed string) []step {
			return []step{{method: "GET", path: "/v1/coupons/" + url.PathEscape(seed)}}
		},
	}
	dirs, err := os.ReadDir(filepath.Join("testdata", "fuzz"))
	if err != nil {
		t.Fatalf("fuzz corpus: %v", err)
	}
	for _, d := range dirs {
		route, ok := routes[d.Name()]
		if !ok {
			t.Fatalf("fuzz corpus %s: no route sends its seeds; add one", d.Name())
		}
		seeds, err := filepath.Glob(filepath.Join("testdata", "fuzz", d.Name(), "*"))
		if err != nil || len(seeds) == 0 {
			t.Fatalf("fuzz corpus %s: no seeds (%v)", d.Name(), err)
		}
		slices.Sort(seeds)
		for _, f := range seeds {
			steps = append(steps, route(readSeed(t, f))...)
		}
	}
	return append(steps, step{method: "GET", path: "/v1/events?limit=1000", want: 200})
}

// bodyRoute returns a route sending a seed as the body of method path.
func bodyRoute(method, path, contentType string) func(string) []step {
	return func(seed string) []step {
		return []step{{method: method, path: path, body: seed, header: []string{"Content-Type", contentType}}}
	}
}

// queryRoute returns a route sending a seed as the query of GET path.
func queryRoute(path string) func(string) []step {
	return func(seed string) []step { return []step{{method: "GET", path: path + "?" + seed}} }
}

// readSeed reads the one []byte or string value of a corpus file.
func readSeed(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read seed: %v", err)
	}
	head, value, ok := strings.Cut(strings.TrimSpace(string(b)), "\n")
	value = strings.TrimSpace(value)
	value, found := strings.CutPrefix(value, "[]byte(")
	if !found {
		value, found = strings.CutPrefix(value, "string(")
	}
	value, closed := strings.CutSuffix(value, ")")
	if !ok || head != "go test fuzz v1" || !found || !closed {
		t.Fatalf("seed %s: want go test fuzz v1 and one []byte or string value", path)
	}
	s, err := strconv.Unquote(value)
	if err != nil {
		t.Fatalf("seed %s: %v", path, err)
	}
	return s
}

// Checks of an answer.

// all passes when every check does.
func all(checks ...func(map[string]any) error) func(map[string]any) error {
	return func(v map[string]any) error {
		for _, c := range checks {
			if err := c(v); err != nil {
				return err
			}
		}
		return nil
	}
}

// field checks a top-level field's value (numbers are float64).
func field(key string, want any) func(map[string]any) error {
	return func(v map[string]any) error {
		if v[key] != want {
			return fmt.Errorf("%s: got %v, want %v", key, v[key], want)
		}
		return nil
	}
}

// length checks the length of a top-level list.
func length(key string, want int) func(map[string]any) error {
	return func(v map[string]any) error {
		if list, ok := v[key].([]any); !ok || len(list) != want {
			return fmt.Errorf("%s: got %v, want %d of them", key, v[key], want)
		}
		return nil
	}
}

// isWalletPage checks a page of a wallet: n coupons by ID, and next the
// last one's ID.
func isWalletPage(n int) func(map[string]any) error {
	return func(v map[string]any) error {
		if err := length("coupons", n)(v); err != nil {
			return err
		}
		var last string
		for _, c := range v["coupons"].([]any) {
			id, _ := c.(map[string]any)["id"].(string)
			if id <= last {
				return fmt.Errorf("coupons: %s after %s, want them by ID", id, last)
			}
			last = id
		}
		if n > 0 && v["next"] != last {
			return fmt.Errorf("next: got %v, want the last coupon's ID, %s", v["next"], last)
		}
		return nil
	}
}

// eventCount checks a page of the event feed holds n events.
func eventCount(n int) func(map[string]any) error { return length("events", n) }

// eventsOfType checks a page of the event feed holds n events of typ.
func eventsOfType(typ string, n int) func(map[string]any) error {
	return func(v map[string]any) error {
		events, _ := v["events"].([]any)
		got := 0
		for _, e := range events {
			if e, _ := e.(map[string]any); e["type"] == typ {
				got++
			}
		}
		if got != n {
			return fmt.Errorf("%s events: got %d, want %d", typ, got, n)
		}
		return nil
	}
}

// counts checks a template's unused and voided counts, and that no coupon
// is in another state.
func counts(unused, voided float64) func(map[string]any) error {
	return func(v map[string]any) error {
		want := map[string]any{"unused": unused, "locked": 0.0, "used": 0.0, "expired": 0.0, "voided": voided}
		got, _ := v["counts"].(map[string]any)
		for k, n := range want {
			if got[k] != n {
				return fmt.Errorf("counts: got %v, want %v", got, want)
			}
		}
		return nil
	}
}

// validity checks a template's duration as read back.
func validity(duration string) func(map[string]any) error {
	return func(v map[string]any) error {
		val, _ := v["validity"].(map[string]any)
		if val["duration"] != duration {
			return fmt.Errorf("validity.duration: got %v, want %q", val["duration"], duration)
		}
		return nil
	}
}

// money checks an order's total and discount, and the rules every order
// keeps: amount_due = total - discount, 0 <= discount <= total.
func money(total, discount float64) func(map[string]any) error {
	return func(v map[string]any) error {
		if err := orderMoney(v); err != nil {
			return err
		}
		if v["total"] != total || v["discount"] != discount {
			return fmt.Errorf("total %v, discount %v: want %v, %v", v["total"], v["discount"], total, discount)
		}
		return nil
	}
}

// orderMoney checks the rules every order keeps: amount_due = total -
// discount, 0 <= discount <= total.
func orderMoney(v map[string]any) error {
	total, t := v["total"].(float64)
	discount, d := v["discount"].(float64)
	due, a := v["amount_due"].(float64)
	if !t || !d || !a || due != total-discount || discount < 0 || discount > total {
		return fmt.Errorf("order money: total %v, discount %v, amount_due %v; want amount_due = total - discount, 0 <= discount <= total",
			v["total"], v["discount"], v["amount_due"])
	}
	return nil
}

// TestParityHostileInput (issue 23, defects 5 and 7 and the input rules
// it asks to decide): on every store alike, invalid UTF-8 in a JSON or
// NDJSON body, or a \u escape of half a surrogate pair, is 422 invalid as
// in a path (two IDs never merge into one "w\uFFFD"); a key given twice at any depth, null for a boolean (a
// "dry_run": null would start the real operation) and a charset other
// than UTF-8 are 400 malformed; a template's reminders are at most
// coupon.MaxReminders distinct lead times, on create and change (a lead
// given twice counts once, as before). None of them changes anything.
func TestParityHostileInput(t *testing.T) {
	leads := func(n int) string {
		var ds []string
		for i := range n {
			ds = append(ds, fmt.Sprintf(`"%dm"`, i+1))
		}
		return "[" + strings.Join(ds, ", ") + "]"
	}
	malformedStep := func(method, path, body string, header ...string) step {
		return step{method: method, path: path, body: body, header: header, want: 400, slug: "malformed"}
	}
	runParity(t, backendtest.All(t), []step{
		makeTemplate, makeCoupon, makeSKU, keepFeed,
		refused("POST", "/v1/templates/{tpl}/issue", "{\"user_ids\": [\"w\xff\", \"w\xfe\"]}"),
		refused("POST", "/v1/templates/{tpl}/issue", "{\"user_id\": \"w\xff\"}\n{\"user_id\": \"w\xfe\"}\n", "Content-Type", ndjson),
		refused("POST", "/v1/users/u1/coupons", "{\"template_id\": \"{tpl}\xff\"}"),
		refused("POST", "/v1/orders", "{\"user_id\": \"w\xfe\", \"items\": [{\"sku\": \"a\", \"qty\": 1, \"unit_price\": 1}]}"),
		refused("PATCH", "/v1/templates/{tpl}", "{\"name\": \"n\xc0\x80\"}"),
		refused("POST", "/v1/templates/{tpl}/issue", `{"user_ids": ["w\ud800", "w\udc00"]}`),
		refused("POST", "/v1/templates/{tpl}/issue", `{"user_id": "w\udbff"}`+"\n", "Content-Type", ndjson),
		refused("POST", "/v1/orders", `{"user_id": "w\udfff", "items": [{"sku": "a", "qty": 1, "unit_price": 1}]}`),
		malformedStep("POST", "/v1/templates", `{"name": "n", "value": 1, "value": 2, "validity": {"duration": "1h"}}`),
		malformedStep("POST", "/v1/orders", `{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "qty": 2, "unit_price": 1}]}`),
		malformedStep("POST", "/v1/templates/{tpl}/issue", "{\"user_id\": \"u2\", \"user_id\": \"u3\"}\n", "Content-Type", ndjson),
		malformedStep("POST", "/v1/users/u1/coupons", `{"template_id": "{tpl}"}`, "Content-Type", "application/json; charset=latin1"),
		malformedStep("POST", "/v1/templates/{tpl}/void", `{"reason": "leaked", "dry_run": null}`),
		malformedStep("POST", "/v1/templates/{tpl}/extend", `{"by": "1h", "dry_run": null}`),
		malformedStep("POST", "/v1/operations", `{"kind": "void", "template_id": "{tpl}", "dry_run": null}`),
		malformedStep("POST", "/v1/archive", `{"before": "2020-01-01T00:00:00Z", "dry_run": null}`),
		refused("POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1h"}, "reminders": `+leads(coupon.MaxReminders+1)+`}`),
		refused("PATCH", "/v1/templates/{tpl}", `{"reminders": `+leads(coupon.MaxReminders+1)+`}`),
		sameFeed,
		{method: "GET", path: "/v1/templates/{tpl}", want: 200, check: all(counts(1, 0), length("reminders", 0))},
		{method: "GET", path: "/v1/coupons/{cpn}", want: 200, check: field("status", "unused")},
		{method: "POST", path: "/v1/templates", body: `{"name": "n", "value": 1, "validity": {"duration": "1h"}, "reminders": ` + leads(coupon.MaxReminders) + `}`,
			want: 201, check: length("reminders", coupon.MaxReminders)},
		{method: "PATCH", path: "/v1/templates/{tpl}", body: `{"reminders": ` + strings.TrimSuffix(leads(coupon.MaxReminders), "]") + `, "1m", "60s"]}`,
			want: 200, check: length("reminders", coupon.MaxReminders)},
	})
}
