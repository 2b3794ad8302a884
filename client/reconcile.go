package client

import (
	"context"
	"net/http"
	"time"
)

// Drift is one thing a reconciliation found out of step.
type Drift struct {
	// Check is such as stock-total, coupon-lock or timer.
	Check      string `json:"check"`
	Subject    string `json:"subject"`
	Detail     string `json:"detail"`
	Expected   int64  `json:"expected"`
	Actual     int64  `json:"actual"`
	Repairable bool   `json:"repairable"`
	Repaired   bool   `json:"repaired"`
}

// Reconciliation is what a run of the checks found, and repaired.
type Reconciliation struct {
	CheckedAt time.Time `json:"checked_at"`
	Drift     []Drift   `json:"drift"`
	// Counts counts the drift by check, past the drifts listed.
	Counts   map[string]int64 `json:"counts"`
	Repaired int64            `json:"repaired"`
}

// Reconcile runs the checks and repairs nothing.
func (c *Client) Reconcile(ctx context.Context) (Reconciliation, error) {
	return decoded[Reconciliation](ctx, c, call{method: http.MethodGet, path: "/v1/reconcile"})
}

// Repair runs the checks and repairs what they find.
func (c *Client) Repair(ctx context.Context) (Reconciliation, error) {
	in := struct {
		Repair bool `json:"repair"`
	}{true}
	return decoded[Reconciliation](ctx, c, call{method: http.MethodPost, path: "/v1/reconcile", in: in})
}
