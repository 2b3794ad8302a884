package client

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// OperationPoll is how often WaitOperation asks how far an operation is.
const OperationPoll = 250 * time.Millisecond

// NewOperation is the body of POST /v1/operations: a bulk void or
// extension of a template's coupons, of a list of coupon IDs or of the
// coupons a list of users holds.
type NewOperation struct {
	// Kind is void or extend (OperationVoid, OperationExtend).
	Kind string `json:"kind"`
	// TemplateID, CouponIDs or UserIDs, exactly one, names the coupons.
	TemplateID string   `json:"template_id,omitempty"`
	CouponIDs  []string `json:"coupon_ids,omitempty"`
	UserIDs    []string `json:"user_ids,omitempty"`
	// Reason is a void's.
	Reason string `json:"reason,omitempty"`
	// ExpiresAt or By, exactly one, is an extension's: the new expiry,
	// or how much later than each coupon's own.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	By        Duration  `json:"by,omitzero"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one: the same call again under the same key is the
	// same operation, resumed if it stopped.
	IdempotencyKey string `json:"-"`
}

// Extension is what an extension of a template's coupons does: ExpiresAt
// or By, exactly one.
type Extension struct {
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	By        Duration  `json:"by,omitzero"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one.
	IdempotencyKey string `json:"-"`
}

// OperationTarget names the coupons an operation works.
type OperationTarget struct {
	TemplateID string   `json:"template_id,omitempty"`
	CouponIDs  []string `json:"coupon_ids,omitempty"`
	UserIDs    []string `json:"user_ids,omitempty"`
}

// OperationCounts are what an operation has done so far.
type OperationCounts struct {
	Voided   int64 `json:"voided"`
	Extended int64 `json:"extended"`
	// Skipped counts the coupons left as they were, by state.
	Skipped map[string]int64 `json:"skipped"`
	// PendingLocked counts the locked coupons to be voided when their
	// lock ends.
	PendingLocked int64 `json:"pending_locked"`
	// Missed counts the coupons an extension found expired although they
	// expired after it was accepted: they stay expired.
	Missed int64 `json:"missed"`
}

// Progress is how far an operation has come: Done of Total coupons
// (users, for a list of users); Done never passes Total.
type Progress struct {
	Done  int64 `json:"done"`
	Total int64 `json:"total"`
}

// Operation is one bulk void or extension as the API writes it; an
// argument or time it lacks is zero.
type Operation struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// State is running, done or cancelled (OperationRunning,
	// OperationDone, OperationCancelled).
	State      string          `json:"state"`
	Target     OperationTarget `json:"target"`
	Reason     string          `json:"reason"`
	ExpiresAt  time.Time       `json:"expires_at"`
	By         Duration        `json:"by"`
	Actor      string          `json:"actor"`
	CreatedAt  time.Time       `json:"created_at"`
	StartedAt  time.Time       `json:"started_at"`
	FinishedAt time.Time       `json:"finished_at"`
	Counts     OperationCounts `json:"counts"`
	Progress   Progress        `json:"progress"`
}

// Done reports whether every coupon the operation targets has been worked.
func (op Operation) Done() bool { return op.State == OperationDone }

// DryRun is the answer to a dry run: what an operation would target, by
// state, changing nothing.
type DryRun struct {
	Kind   string          `json:"kind"`
	Target OperationTarget `json:"target"`
	Counts Counts          `json:"counts"`
	Total  int64           `json:"total"`
}

// StartOperation starts a bulk operation, which runs in the server's
// background; the same call again under the same op.IdempotencyKey is the
// same operation, resumed if it stopped.
func (c *Client) StartOperation(ctx context.Context, op NewOperation) (Operation, error) {
	return decoded[Operation](ctx, c, call{method: http.MethodPost, path: "/v1/operations", in: op, key: op.IdempotencyKey})
}

// PreviewOperation answers what op would target, by state, and starts
// nothing: a dry run.
func (c *Client) PreviewOperation(ctx context.Context, op NewOperation) (DryRun, error) {
	in := struct {
		NewOperation
		DryRun bool `json:"dry_run"`
	}{op, true}
	return decoded[DryRun](ctx, c, call{method: http.MethodPost, path: "/v1/operations", in: in, key: op.IdempotencyKey})
}

// VoidTemplateParams is what the void of a template's coupons asks.
type VoidTemplateParams struct {
	Reason string `json:"reason,omitempty"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one.
	IdempotencyKey string `json:"-"`
}

// VoidTemplate starts the void of a template's coupons.
func (c *Client) VoidTemplate(ctx context.Context, templateID string, p VoidTemplateParams) (Operation, error) {
	return c.templateOperation(ctx, templateID, "void", p, p.IdempotencyKey)
}

// ExtendTemplate starts the extension of a template's coupons.
func (c *Client) ExtendTemplate(ctx context.Context, templateID string, ext Extension) (Operation, error) {
	return c.templateOperation(ctx, templateID, "extend", ext, ext.IdempotencyKey)
}

// templateOperation starts the operation action on a template's coupons
// under key.
func (c *Client) templateOperation(ctx context.Context, templateID, action string, in any, key string) (Operation, error) {
	return decoded[Operation](ctx, c, call{method: http.MethodPost, path: "/v1/templates/" + seg(templateID) + "/" + action, in: in, key: key})
}

// Operation reads an operation.
func (c *Client) Operation(ctx context.Context, id string) (Operation, error) {
	return decoded[Operation](ctx, c, call{method: http.MethodGet, path: "/v1/operations/" + seg(id)})
}

// WaitOperation reads operation id every OperationPoll until it is done
// or cancelled, calling progress (if not nil) with each read, and returns
// the last.
func (c *Client) WaitOperation(ctx context.Context, id string, progress func(Operation)) (Operation, error) {
	for {
		op, err := c.Operation(ctx, id)
		if err != nil {
			return op, err
		}
		if progress != nil {
			progress(op)
		}
		if op.State != "running" {
			return op, nil
		}
		if err := sleep(ctx, OperationPoll); err != nil {
			return op, fmt.Errorf("client: wait for operation %s: %w", id, err)
		}
	}
}
