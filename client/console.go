package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Forecast is what falls due in each minute from the current one on.
type Forecast struct {
	From    time.Time `json:"from"`
	Minutes int       `json:"minutes"`
	// Template is the template asked for, "" for every template.
	Template string `json:"template,omitempty"`
	// ComputedAt is when the server counted it: one count answers every
	// request for 15 s.
	ComputedAt time.Time `json:"computed_at"`
	// Due leaves out the minutes with nothing due.
	Due []Due `json:"due"`
}

// Due is what falls due of one kind in one minute of a forecast.
type Due struct {
	// Kind is coupon.expire, coupon.release or order.close.
	Kind string `json:"kind"`
	// Minute counts from the forecast's From.
	Minute int64     `json:"minute"`
	At     time.Time `json:"at"`
	Count  int64     `json:"count"`
}

// Status is an instance's metrics, every shard's lease and the instances
// seen lately.
type Status struct {
	Time     time.Time `json:"time"`
	DBTime   time.Time `json:"db_time"`
	Instance string    `json:"instance"`
	// Metrics are the instance's lapse_* series by metric name.
	Metrics   map[string][]Sample `json:"metrics"`
	Leases    []Lease             `json:"leases"`
	Instances []Instance          `json:"instances"`
}

// Instance is an instance seen within three lease TTLs: its clock skew
// against the database's as it last measured it, in milliseconds, and
// when (both nil before it measures), and the shards it holds.
type Instance struct {
	Name   string     `json:"name"`
	SeenAt time.Time  `json:"seen_at"`
	SkewMS *int64     `json:"skew_ms"`
	SkewAt *time.Time `json:"skew_at"`
	Shards []int      `json:"shards"`
}

// Sample is one series of a metric: a counter's or gauge's value, or a
// histogram's count with its cumulative [upper bound, count] buckets.
type Sample struct {
	Labels  map[string]string `json:"labels"`
	Value   float64           `json:"value"`
	Buckets [][2]float64      `json:"buckets"`
}

// Lease is one shard's lease; Held is on the database's clock.
type Lease struct {
	Shard     int       `json:"shard"`
	Holder    string    `json:"holder"`
	Token     int64     `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
	Held      bool      `json:"held"`
}

// ForecastQuery is what a forecast asks.
type ForecastQuery struct {
	// Minutes is how many minutes from now the forecast covers, 1 to
	// 1440; 0 takes the server's 24 hours.
	Minutes int
	// Template, if set, counts that template's coupons only.
	Template string
}

// Forecast reads what falls due in each of the minutes q asks.
func (c *Client) Forecast(ctx context.Context, fq ForecastQuery) (Forecast, error) {
	q := url.Values{}
	if fq.Minutes > 0 {
		q.Set("minutes", strconv.Itoa(fq.Minutes))
	}
	if fq.Template != "" {
		q.Set("template", fq.Template)
	}
	return decoded[Forecast](ctx, c, call{method: http.MethodGet, path: "/v1/console/forecast", query: q})
}

// Status reads the instance's metrics and the shards' leases.
func (c *Client) Status(ctx context.Context) (Status, error) {
	return decoded[Status](ctx, c, call{method: http.MethodGet, path: "/v1/console/status"})
}
