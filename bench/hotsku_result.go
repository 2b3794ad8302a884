package bench

import (
	"fmt"
	"io"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// HotSKUResult is what a hot-SKU run measured: lapse's orders of one SKU,
// of one bucket and (with --buckets) of several, beside the
// plain-transaction floor's. Times are in seconds.
type HotSKUResult struct {
	Store   string `json:"store"`
	Clients int    `json:"clients"`
	// Stock is each SKU's stock at the start.
	Stock int64     `json:"stock"`
	Lapse HotSKURun `json:"lapse"`
	// Buckets is the bucket count of Bucketed, lapse's run on a SKU split
	// into buckets; none without --buckets.
	Buckets  int        `json:"buckets,omitempty"`
	Bucketed *HotSKURun `json:"bucketed,omitempty"`
	Floor    HotSKURun  `json:"floor"`
	// Ratio is lapse's orders a second over the floor's (target ≥ 1), and
	// BucketedRatio the bucketed run's (target ≥ 2).
	Ratio         float64 `json:"ratio"`
	BucketedRatio float64 `json:"bucketed_ratio,omitempty"`
	CPUs          int     `json:"cpus"`
	// LoadAvg is the machine's one-minute load average at the start and at
	// the end of the run, where the system reports it.
	LoadAvg []float64 `json:"loadavg,omitempty"`
}

// HotSKURun is one way of creating the orders of the hot SKU.
type HotSKURun struct {
	Seconds float64 `json:"seconds"`
	// Orders counts the orders created, at Rate a second; Short the ones
	// refused for want of stock.
	Orders  int       `json:"orders"`
	Short   int       `json:"short"`
	Rate    float64   `json:"rate"`
	Latency Quantiles `json:"latency"`
	// Available, Reserved and Sold are the SKU's counters at the end.
	Available int64 `json:"available"`
	Reserved  int64 `json:"reserved"`
	Sold      int64 `json:"sold"`
	// StockOK reports no oversell: available is not negative and, with
	// the units the created orders took, makes the stock; lapse's orders
	// hold theirs reserved, the floor's none.
	StockOK bool `json:"stock_ok"`

	// p99 is what the plot draws: the p99 of the orders begun in each
	// second.
	p99 []Point
}

// hotSKURunOf sums up ops, the one-unit order creations of a run that
// took took, and checks sku, its SKU's counters at the end, against
// stock: each order took a unit from available, and reserved it if
// reserves.
func hotSKURunOf(ops []sample, took time.Duration, stock int64, reserves bool, sku storetype.SKU) HotSKURun {
	st := stats(ops)
	r := HotSKURun{Seconds: took.Seconds(), Orders: st.N - st.Failed, Short: st.Failed, Latency: st.Quantiles,
		Available: sku.Available, Reserved: sku.Reserved, Sold: sku.Sold}
	r.Rate = float64(r.Orders) / took.Seconds()
	taken, reserved := int64(r.Orders), int64(0)
	if reserves {
		reserved = taken
	}
	r.StockOK = sku.Available >= 0 && sku.Available+taken == stock && sku.Reserved == reserved && sku.Sold == 0
	return r
}

// String is the summary line of r.
func (r HotSKURun) String() string {
	return fmt.Sprintf("%.0f orders/s, p50 %s p99 %s max %s, %d short, stock ok %t",
		r.Rate, ms(r.Latency.P50), ms(r.Latency.P99), ms(r.Latency.Max), r.Short, r.StockOK)
}

// WriteJSON writes r as indented JSON.
func (r HotSKUResult) WriteJSON(w io.Writer) error { return writeJSON(w, r) }
