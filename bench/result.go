package bench

import "io"

// Result is everything a storm run measured. Times are in seconds.
type Result struct {
	Store     string  `json:"store"`
	Coupons   int     `json:"coupons"`
	Templates int     `json:"templates"`
	Users     int     `json:"users"`
	UserRate  float64 `json:"user_rate"`
	BatchSize int     `json:"batch_size"`
	Instances int     `json:"instances"`
	// UserBudget is the pace's budget of lapse's drain (Config.UserBudget),
	// 0 for none.
	UserBudget float64 `json:"user_budget,omitempty"`
	// FloorShare is the share of its time the floor drained
	// (Config.FloorShare): 1 flat out; 0 in runs made before it could
	// be held.
	FloorShare float64 `json:"floor_share"`
	CPUs       int     `json:"cpus"`
	// LoadAvg is the machine's one-minute load average at the start and at
	// the end of the run, where the system reports it.
	LoadAvg []float64  `json:"loadavg,omitempty"`
	Seed    SeedResult `json:"seed"`
	Idle    IdleResult `json:"idle"`
	Lapse   Drain      `json:"lapse"`
	Naive   Drain      `json:"naive"`
	Floor   Drain      `json:"floor"`
	Steady  Steady     `json:"steady"`
	Ratios  Ratios     `json:"ratios"`
	// Racers are the racers of each drain (lapse, naive, floor): users
	// locking and redeeming storm coupons around T0.
	Racers map[string]Racers `json:"racers"`
	// Pace is the pace of lapse's drain over time, from its start to the
	// storm's end, when UserBudget paces it.
	Pace []PacePoint `json:"pace,omitempty"`

	// series holds what the plot draws.
	series map[string]drainSeries
}

// SeedResult is the bulk issuance that seeded the storm: the storm's
// coupons and one live coupon per user.
type SeedResult struct {
	Issued  int     `json:"issued"`
	Seconds float64 `json:"seconds"`
	Rate    float64 `json:"rate"`
}

// IdleResult is the user load alone. Here and in Drain and Steady, the
// user figures and Ops are the writes' (lock, redeem), Reads the wallet
// reads'.
type IdleResult struct {
	// Engines is how many instances' engines ran, with nothing due,
	// beside the load; 0 in runs made before the idle phase ran any.
	Engines int                `json:"engines"`
	UserP50 float64            `json:"user_p50"`
	UserP99 float64            `json:"user_p99"`
	Ops     map[string]OpStats `json:"ops"`
	Reads   OpStats            `json:"reads"`
	// WindowP99 is the writes' p99 of each whole idleWindow of the phase,
	// in order: how far the p99 of a short idle would wander (absent in
	// runs made before it was kept).
	WindowP99 []float64 `json:"window_p99,omitempty"`
}

// Drain is one way of expiring the storm, under the user load. The lag
// figures are lapse's only: the other ways keep no due time per row.
type Drain struct {
	DrainSeconds float64 `json:"drain_seconds"`
	// Rate is coupons expired a second.
	Rate    float64            `json:"rate"`
	LagP50  *float64           `json:"lag_p50,omitempty"`
	LagP99  *float64           `json:"lag_p99,omitempty"`
	LagMax  *float64           `json:"lag_max,omitempty"`
	UserP50 float64            `json:"user_p50"`
	UserP99 float64            `json:"user_p99"`
	Ops     map[string]OpStats `json:"ops"`
	Reads   OpStats            `json:"reads"`
}

// Steady is lapse expiring coupons that fall due at a steady rate, one
// by one, under the user load: the lag a user sees outside storms.
type Steady struct {
	Seconds float64 `json:"seconds"`
	// Rate is coupons falling due a second.
	Rate    float64            `json:"rate"`
	Expired int                `json:"expired"`
	LagP50  float64            `json:"lag_p50"`
	LagP99  float64            `json:"lag_p99"`
	LagMax  float64            `json:"lag_max"`
	UserP50 float64            `json:"user_p50"`
	UserP99 float64            `json:"user_p99"`
	Ops     map[string]OpStats `json:"ops"`
	Reads   OpStats            `json:"reads"`
}

// Ratios are the figures the targets are stated in.
type Ratios struct {
	// DrainVsFloor is lapse's rate over the floor's (target ≥ 0.7).
	DrainVsFloor float64 `json:"drain_vs_floor"`
	// UserP99StormVsIdle is the user p99 during lapse's drain over the
	// idle one (target ≤ 2).
	UserP99StormVsIdle float64 `json:"user_p99_storm_vs_idle"`
	// UserP99NaiveVsIdle is the user p99 during the naive UPDATE over the
	// idle one.
	UserP99NaiveVsIdle float64 `json:"user_p99_naive_vs_idle"`
	// UserP99FloorVsIdle is the user p99 during the floor's drain over the
	// idle one.
	UserP99FloorVsIdle float64 `json:"user_p99_floor_vs_idle"`
}

// drainSeries is what the plot draws of one drain: coupons expired and the
// user p99 over time, in seconds since T0.
type drainSeries struct {
	expired []Point
	p99     []Point
}

// WriteJSON writes r as indented JSON.
func (r Result) WriteJSON(w io.Writer) error { return writeJSON(w, r) }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
