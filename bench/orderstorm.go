package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

// The order storm's orders: each of one of stormSKUs SKUs, stormQty
// units at orderPrice, every stormCouponEvery-th holding a coupon.
const (
	stormSKUs        = 50
	stormQty         = 2
	stormCouponEvery = 3
	// stormLead is how far before the storm's instant the engine starts.
	stormLead = 500 * time.Millisecond
)

// OrderStormConfig sets up RunOrderStorm. Target.Open is required; the
// bench starts from an empty store.
type OrderStormConfig struct {
	Target Target
	// N is how many unpaid orders fall due at the one instant.
	N int
	// Instances is how many lapse instances close them side by side; 0
	// means 1. More than one needs a shared store.
	Instances int
	// Progress receives a progress bar; nil draws none.
	Progress io.Writer
	// Log receives the engine's log; nil discards it.
	Log *slog.Logger
}

// OrderStormResult is what an order storm measured. Times are in
// seconds.
type OrderStormResult struct {
	Store     string `json:"store"`
	Orders    int    `json:"orders"`
	SKUs      int    `json:"skus"`
	Instances int    `json:"instances"`
	// Coupons is how many of the orders held a coupon.
	Coupons int `json:"coupons"`
	// AllBack is when the last order.closed committed, after the instant
	// the orders fell due: every unit and coupon is back by then (each
	// goes back in its order's transaction).
	AllBack float64 `json:"all_back"`
	// CloseLag is each order's stored close time minus its deadline.
	CloseLag Quantiles `json:"close_lag"`
	// ClosedEarly counts orders closed before their deadline (never, if
	// lapse is right).
	ClosedEarly int `json:"closed_early"`
	// StockOK reports every SKU whole (available + reserved + sold its
	// stock) with nothing reserved; CouponsOK every coupon unused again.
	StockOK   bool `json:"stock_ok"`
	CouponsOK bool `json:"coupons_ok"`
	// Floor is the same storm, seeded again, closed by the floor
	// (Raw.FloorCloseOrders) at its instant.
	Floor   FloorStormResult `json:"floor"`
	CPUs    int              `json:"cpus"`
	LoadAvg []float64        `json:"loadavg,omitempty"`
}

// FloorStormResult is what the floor's close of an order storm measured.
type FloorStormResult struct {
	// AllBack is when its one transaction committed, after the instant.
	AllBack   float64 `json:"all_back"`
	Closed    int64   `json:"closed"`
	StockOK   bool    `json:"stock_ok"`
	CouponsOK bool    `json:"coupons_ok"`
}

// WriteJSON writes r as indented JSON.
func (r OrderStormResult) WriteJSON(w io.Writer) error { return writeJSON(w, r) }

// RunOrderStorm seeds cfg.N unpaid orders over stormSKUs SKUs, a third
// holding a coupon, all due at one instant; then runs lapse's engine
// from just before that instant until every order is closed, and reads
// everything back.
func RunOrderStorm(ctx context.Context, cfg OrderStormConfig) (OrderStormResult, error) {
	quiet(&cfg.Progress, &cfg.Log)
	cfg.Instances = orDefault(cfg.Instances, 1)
	switch {
	case cfg.Target.Open == nil || cfg.N < 1:
		return OrderStormResult{}, errors.New("bench: an order storm needs a target and orders")
	case cfg.Instances > 1 && !cfg.Target.Shared:
		return OrderStormResult{}, fmt.Errorf("bench: %d instances: the %s store is one process's", cfg.Instances, cfg.Target.Name)
	}
	res := OrderStormResult{Store: cfg.Target.Name, Orders: cfg.N, SKUs: stormSKUs, Instances: cfg.Instances,
		CPUs: runtime.NumCPU(), LoadAvg: loadAvg()}
	clk := &clock{}
	var closed, lastClose atomic.Int64 // lastClose: real time, in ns
	hooks := func(wheel *timer.Wheel) store.Hooks {
		return store.Hooks{OnTimer: engine.Hint(wheel), OnEvents: func(events []storetype.Event) {
			if n := countOf(events, store.EventOrderClosed); n > 0 {
				closed.Add(n)
				lastClose.Store(time.Now().UnixNano())
			}
		}}
	}
	wheel := newWheel(clk.Now)
	st, raw, err := cfg.Target.Open(ctx, hooks(wheel))
	if err != nil {
		return res, err
	}
	defer st.Close()
	now := clk.Now()
	due := now.Add(time.Hour)
	stock := int64(cfg.N) * stormQty
	ids, coupons, err := seedOrderStorm(ctx, st, cfg.N, stock, now, due)
	if err != nil {
		return res, err
	}
	res.Coupons = len(coupons)
	eng := newEngine(cfg.Target, st, wheel, clk.Now, cfg.Log, 0, 0, nil)
	if err := eng.Start(ctx); err != nil {
		return res, err
	}
	defer eng.Stop()
	stop, err := startInstances(ctx, eng, cfg.Target, cfg.Instances, clk, cfg.Log, 0, nil, hooks)
	if err != nil {
		return res, err
	}
	stopMore := sync.OnceFunc(stop)
	defer stopMore()
	clk.jumpTo(due.Add(-stormLead))
	b := StartBar(cfg.Progress, "order storm", int64(cfg.N), closed.Load)
	for stall := time.Now().Add(stallAfter); closed.Load() < int64(cfg.N); {
		if time.Now().After(stall) {
			return res, fmt.Errorf("bench order storm: %d of %d orders closed", closed.Load(), cfg.N)
		}
		if err := sleep(ctx, 5*time.Millisecond); err != nil {
			return res, err
		}
	}
	res.AllBack = time.Unix(0, lastClose.Load()).Sub(clk.real(due)).Seconds()
	eng.Stop()
	stopMore()
	if err := readBackStorm(ctx, st, &res, ids, coupons, stock); err != nil {
		return res, err
	}
	if res.Floor, err = floorStorm(ctx, st, raw, clk, cfg.N, stock); err != nil {
		return res, err
	}
	res.LoadAvg = append(res.LoadAvg, loadAvg()...)
	b.Finish(fmt.Sprintf("all back at T0 + %.3fs, close lag p50 %s p99 %s; the floor at T0 + %.3fs",
		res.AllBack, ms(res.CloseLag.P50), ms(res.CloseLag.P99), res.Floor.AllBack))
	return res, nil
}

// floorStorm seeds the storm again, n orders due an hour from now on
// clk, moves clk to their instant and closes them there with the floor,
// then reads them back.
func floorStorm(ctx context.Context, st Store, raw Raw, clk *clock, n int, stock int64) (FloorStormResult, error) {
	now := clk.Now()
	due := now.Add(time.Hour)
	ids, coupons, err := seedOrderStorm(ctx, st, n, stock, now, due)
	if err != nil {
		return FloorStormResult{}, err
	}
	clk.jumpTo(due)
	start := time.Now()
	closed, err := raw.FloorCloseOrders(ctx, due)
	if err != nil {
		return FloorStormResult{}, err
	}
	f := FloorStormResult{AllBack: time.Since(start).Seconds(), Closed: closed}
	var back OrderStormResult
	if err := readBackStorm(ctx, st, &back, ids, coupons, stock); err != nil {
		return f, err
	}
	f.StockOK, f.CouponsOK = back.StockOK, back.CouponsOK
	return f, nil
}

// seedOrderStorm stocks the SKUs and creates n unpaid orders due at due,
// every stormCouponEvery-th with a coupon claimed for it. It returns the
// orders' and the coupons' IDs.
func seedOrderStorm(ctx context.Context, st Store, n int, stock int64, now, due time.Time) (ids, coupons []string, err error) {
	for i := range stormSKUs {
		if _, err := st.PutSKU(ctx, store.PutSKUParams{SKU: skuID(i), Stock: stock, Now: now}); err != nil {
			return nil, nil, err
		}
	}
	tpl, err := newTemplate(ctx, st, "order storm", now, func(tp *coupon.Template) { tp.Duration = 24 * time.Hour })
	if err != nil {
		return nil, nil, err
	}
	for i := range n {
		p := store.CreateOrderParams{UserID: userID(i), Items: []order.Item{{SKU: skuID(i % stormSKUs), Qty: stormQty, UnitPrice: orderPrice}},
			Deadline: due, Now: now}
		if i%stormCouponEvery == 0 {
			c, err := st.Claim(ctx, store.ClaimParams{TemplateID: tpl, UserID: p.UserID, Now: now})
			if err != nil {
				return nil, nil, err
			}
			p.CouponIDs, coupons = []string{c.ID}, append(coupons, c.ID)
		}
		o, err := st.CreateOrder(ctx, p)
		if err != nil {
			return nil, nil, fmt.Errorf("create order %d: %w", i, err)
		}
		ids = append(ids, o.ID)
	}
	return ids, coupons, nil
}

// readBackStorm reads back the storm's orders (each closed on timeout,
// its lag), coupons (each unused again) and SKUs (each whole, nothing
// reserved) into res.
func readBackStorm(ctx context.Context, st Store, res *OrderStormResult, ids, coupons []string, stock int64) error {
	lags := make([]time.Duration, 0, len(ids))
	for _, id := range ids {
		o, err := st.Order(ctx, id)
		if err != nil {
			return fmt.Errorf("read order %s: %w", id, err)
		}
		if o.Status != order.Closed || o.CloseReason != order.ReasonTimeout {
			return fmt.Errorf("order %s is %s (%s) once everything settled", id, o.Status, o.CloseReason)
		}
		lag := o.UpdatedAt.Sub(o.Deadline)
		if lag < 0 {
			res.ClosedEarly++
		}
		lags = append(lags, lag)
	}
	res.CloseLag = quantilesOf(lags)
	res.CouponsOK = true
	for _, id := range coupons {
		c, err := st.Coupon(ctx, id)
		if err != nil {
			return fmt.Errorf("read coupon %s: %w", id, err)
		}
		res.CouponsOK = res.CouponsOK && c.Status == coupon.Unused
	}
	res.StockOK = true
	for i := range stormSKUs {
		s, err := st.SKU(ctx, skuID(i))
		if err != nil {
			return err
		}
		res.StockOK = res.StockOK && s.Available == stock && s.Reserved == 0 && s.Sold == 0
	}
	return nil
}

// WritePlot refuses: an order storm is its JSON's few figures, with no
// series to draw.
func (r OrderStormResult) WritePlot(io.Writer) error {
	return errors.New("bench: an order storm has no plot; leave out --plot")
}
