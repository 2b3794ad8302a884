package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/driver/postgres/pgaftest"
)

// TestPostgresReplayWaitsForStandby: on a pg_auto_failover formation whose
// standby has stopped taking WAL, a claim under an Idempotency-Key is not
// answered, as its commit waits for the standby. Its rows are already
// visible on the primary, yet a retry under the same key is not answered
// from them either: a failover now would take them back. Once the
// standby takes WAL again, the retry answers the first attempt's coupon,
// the user's only one.
func TestPostgresReplayWaitsForStandby(t *testing.T) {
	f := pgaftest.Start(t)
	s := startShared(t, f.URL(), 1)[0]
	tpl := clienttest.Must(s.api.CreateTemplate(t.Context(), client.NewTemplate{Name: "t", Value: 100,
		Validity: client.Validity{Duration: client.Duration(time.Hour)}})).On(t)
	resume := f.StallStandby(f.Other(f.Primary()))

	claim := func(within time.Duration) (int, []byte, error) {
		ctx, cancel := context.WithTimeout(t.Context(), within)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/v1/users/u1/coupons",
			strings.NewReader(`{"template_id":"`+tpl.ID+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "claim-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, body, err
	}
	if status, body, err := claim(2 * time.Second); err == nil {
		t.Fatalf("the claim was answered %d %s while its standby took no WAL", status, body)
	}
	if status, body, err := claim(2 * time.Second); err == nil {
		t.Fatalf("its retry was answered %d %s from a commit its standby does not have", status, body)
	}
	resume()
	var got client.Coupon
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		status, body, err := claim(5 * time.Second)
		if err == nil && status == http.StatusCreated {
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the retry was not answered once the standby took WAL again: %d %s %v", status, body, err)
		}
	}
	page := clienttest.Must(s.api.WalletPage(t.Context(), "u1", client.WalletQuery{})).On(t)
	if len(page.Coupons) != 1 || page.Coupons[0].ID != got.ID {
		t.Errorf("the retry answered %s; the user holds %v", got.ID, page.Coupons)
	}
}
