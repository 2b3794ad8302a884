package bench

import "io"

// OrdersResult is everything an orders run measured. Times are in seconds.
type OrdersResult struct {
	Store string `json:"store"`
	// Orders is how many orders were created, at Rate a second: the last
	// was created CreateSeconds after the first began (about the duration
	// asked, longer if the store could not keep up).
	Orders        int     `json:"orders"`
	Rate          float64 `json:"rate"`
	CreateSeconds float64 `json:"create_seconds"`
	// Timeout is each order's deadline after its creation.
	Timeout  float64 `json:"timeout"`
	PayShare float64 `json:"pay_share"`
	// Paid and Closed count the orders as read back once everything
	// settled: paid, or closed on timeout. Every order is one or the
	// other.
	Paid   int `json:"paid"`
	Closed int `json:"closed"`
	// LatePayments counts payments the store refused because their order
	// had already closed; ClosedEarly the orders closed before their
	// deadline (never, if lapse is right).
	LatePayments int `json:"late_payments"`
	ClosedEarly  int `json:"closed_early"`
	// CloseLag is the stored close time minus the deadline of the closed
	// orders.
	CloseLag Quantiles `json:"close_lag"`
	// StockOK reports that every SKU's counters add up to its stock, with
	// nothing left reserved and sold what the paid orders bought.
	StockOK bool `json:"stock_ok"`
	CPUs    int  `json:"cpus"`
	// LoadAvg is the machine's one-minute load average at the start and at
	// the end of the run, where the system reports it.
	LoadAvg []float64 `json:"loadavg,omitempty"`

	// lagP50 and lagP99 are what the plot draws: the close lag of the
	// orders falling due in each second since the first was created.
	lagP50, lagP99 []Point
}

// WriteJSON writes r as indented JSON.
func (r OrdersResult) WriteJSON(w io.Writer) error { return writeJSON(w, r) }
