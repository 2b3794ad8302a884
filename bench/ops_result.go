package bench

import (
	"fmt"
	"io"
)

// OpsResult is everything a run of RunOps measured, with its config.
// Times are in seconds.
type OpsResult struct {
	Store     string  `json:"store"`
	Coupons   int     `json:"coupons"`
	Users     int     `json:"users"`
	UserRate  float64 `json:"user_rate"`
	BatchSize int     `json:"batch_size"`
	// OperationBatch is the coupons per transaction of the operations,
	// and OperationShare the share of its time their worker spent in
	// batches.
	OperationBatch int     `json:"operation_batch"`
	OperationShare float64 `json:"operation_share"`
	IdleSeconds    float64 `json:"idle_seconds"`
	// ExtendBy is what the bulk extend adds to each expires_at.
	ExtendBy float64 `json:"extend_by"`
	CPUs     int     `json:"cpus"`
	// LoadAvg is the machine's one-minute load average at the start and at
	// the end of the run, where the system reports it.
	LoadAvg []float64  `json:"loadavg,omitempty"`
	Seed    SeedResult `json:"seed"`
	// SettleSeconds is how long settling the store after the seed took.
	SettleSeconds float64 `json:"settle_seconds"`
	// Idle is the user load alone.
	Idle    UserLoad   `json:"idle"`
	Void    BulkRun    `json:"void"`
	Extend  BulkRun    `json:"extend"`
	Archive ArchiveRun `json:"archive"`
	Ratios  OpsRatios  `json:"ratios"`

	// What the plot draws, in seconds since the idle phase started
	// measuring: the coupons voided and extended so far, and the user
	// writes' p99.
	voided, extended, p99 []Point
}

// UserLoad is the user load over one phase: its writes (lock, redeem)
// together and each apart, and its wallet reads.
type UserLoad struct {
	Writes OpStats            `json:"writes"`
	Ops    map[string]OpStats `json:"ops"`
	Reads  OpStats            `json:"reads"`
}

// note is what a progress bar says of the load.
func (u UserLoad) note() string {
	w := u.Writes
	return fmt.Sprintf("writes p50 %s p99 %s max %s, %s", ms(w.P50), ms(w.P99), ms(w.Max), readsNote(u.Reads))
}

// BulkRun is one bulk operation of a template's coupons, worked by the
// engine under the user load: from when the engine took it to when its
// last batch committed.
type BulkRun struct {
	// Operation is its ID.
	Operation string `json:"operation"`
	// Start is when the engine took it, since the idle phase started
	// measuring.
	Start   float64 `json:"start"`
	Seconds float64 `json:"seconds"`
	// Rate is coupons worked a second.
	Rate float64 `json:"rate"`
	// Worked counts the coupons the operation voided or extended, Events
	// the coupon.voided or coupon.extended events committed; Skipped and
	// PendingLocked are the operation's own counts.
	Worked        int64            `json:"worked"`
	Events        int64            `json:"events"`
	Skipped       map[string]int64 `json:"skipped"`
	PendingLocked int64            `json:"pending_locked"`
	// Template is the template's coupons by state once it is done.
	Template map[string]int64 `json:"template_counts"`
	// Users is the user load while it ran.
	Users UserLoad `json:"users"`
}

// ArchiveRun is one archive of every terminal coupon, the user load
// stopped: the voided ones and those the load redeemed.
type ArchiveRun struct {
	Seconds float64 `json:"seconds"`
	// Rate is coupons archived a second.
	Rate     float64 `json:"rate"`
	Coupons  int64   `json:"coupons"`
	Voided   int64   `json:"voided"`
	Redeemed int64   `json:"redeemed"`
}

// OpsRatios are the user writes' p99 during each operation over the idle
// one (the target for the void: ≤ 2).
type OpsRatios struct {
	UserP99VoidVsIdle   float64 `json:"user_p99_void_vs_idle"`
	UserP99ExtendVsIdle float64 `json:"user_p99_extend_vs_idle"`
}

// WriteJSON writes r as indented JSON.
func (r OpsResult) WriteJSON(w io.Writer) error { return writeJSON(w, r) }
