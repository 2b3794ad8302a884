package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
)

// The SKUs of the hot-SKU bench, one unit an order: lapse's orders take
// from lapseSKU (one bucket) and bucketSKU (Buckets buckets), the floor's
// from floorSKU (one row).
const (
	lapseSKU  = "hot"
	bucketSKU = "hot-buckets"
	floorSKU  = "hot-floor"
)

// HotSKUConfig sets up RunHotSKU. Target.Open is required; the bench
// starts from an empty store.
type HotSKUConfig struct {
	Target Target
	// Clients is how many clients create orders back to back; 0 means 16.
	Clients int
	// Duration is how long each of lapse and the floor runs; 0 means 10s.
	Duration time.Duration
	// Stock is each SKU's stock; 0 means 100,000,000, more than a run
	// sells.
	Stock int64
	// Buckets, if more than 1, adds a run of lapse on a SKU of that many
	// stock buckets (at most order.MaxBuckets).
	Buckets int
	// Progress receives progress bars; nil draws none.
	Progress io.Writer
}

func (c *HotSKUConfig) defaults() error {
	c.Clients = orDefault(c.Clients, 16)
	c.Duration = orDefault(c.Duration, 10*time.Second)
	c.Stock = orDefault(c.Stock, 100_000_000)
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	if c.Target.Open == nil {
		return errors.New("bench: the target needs Open")
	}
	if c.Buckets < 0 || c.Buckets > order.MaxBuckets {
		return fmt.Errorf("bench: buckets %d, want 1 to %d", c.Buckets, order.MaxBuckets)
	}
	return nil
}

// RunHotSKU runs the flash-sale bench: Clients clients create one-unit
// orders of one SKU back to back for Duration, first through lapse's
// CreateOrder on a SKU of one bucket, then (with Buckets) on a SKU of
// Buckets buckets, then through the floor, a plain transaction of the
// same writes (order row, event row, then the guarded stock update) on
// one row of the same database. Each run then checks its SKU was never
// oversold.
func RunHotSKU(ctx context.Context, cfg HotSKUConfig) (HotSKUResult, error) {
	if err := cfg.defaults(); err != nil {
		return HotSKUResult{}, err
	}
	res := HotSKUResult{Store: cfg.Target.Name, Clients: cfg.Clients, Stock: cfg.Stock, CPUs: runtime.NumCPU(), LoadAvg: loadAvg()}
	st, raw, err := cfg.Target.Open(ctx, store.Hooks{})
	if err != nil {
		return res, err
	}
	defer st.Close()
	h := &hotSKU{cfg: cfg, st: st, clock: &clock{}}
	skus := map[string]int{lapseSKU: 1, floorSKU: 1}
	if cfg.Buckets > 1 {
		skus[bucketSKU] = cfg.Buckets
	}
	for sku, n := range skus {
		if _, err := st.PutSKU(ctx, store.PutSKUParams{SKU: sku, Stock: cfg.Stock, Buckets: n, Now: h.clock.Now()}); err != nil {
			return res, err
		}
	}
	if res.Lapse, err = h.run(ctx, "lapse", lapseSKU, true, h.lapseOrder); err != nil {
		return res, err
	}
	if cfg.Buckets > 1 {
		b, err := h.run(ctx, fmt.Sprintf("lapse, %d buckets", cfg.Buckets), bucketSKU, true, h.lapseOrder)
		if err != nil {
			return res, err
		}
		res.Buckets, res.Bucketed = cfg.Buckets, &b
	}
	if res.Floor, err = h.run(ctx, "floor", floorSKU, false, func(ctx context.Context, o order.Order) (bool, error) {
		return raw.FloorOrder(ctx, o, store.OrderEvent(o, store.EventOrderCreated, 0, "", o.CreatedAt))
	}); err != nil {
		return res, err
	}
	res.Ratio = ratio(res.Lapse.Rate, res.Floor.Rate)
	if res.Bucketed != nil {
		res.BucketedRatio = ratio(res.Bucketed.Rate, res.Floor.Rate)
	}
	res.LoadAvg = append(res.LoadAvg, loadAvg()...)
	return res, nil
}

// hotSKU is one hot-SKU run in progress.
type hotSKU struct {
	cfg   HotSKUConfig
	st    Store
	clock *clock
}

// lapseOrder creates o through lapse: false if the SKU is short.
func (h *hotSKU) lapseOrder(ctx context.Context, o order.Order) (bool, error) {
	_, err := h.st.CreateOrder(ctx, store.CreateOrderParams{UserID: o.UserID, Items: o.Items, Deadline: o.Deadline, Now: o.CreatedAt})
	if errors.Is(err, order.ErrInsufficientStock) {
		return false, nil
	}
	return err == nil, err
}

// run has the clients create orders of sku through create for the
// configured duration, then checks sku's counters: an order reserves its
// unit if reserves, else only takes it from available.
func (h *hotSKU) run(ctx context.Context, name, sku string, reserves bool, create func(context.Context, order.Order) (bool, error)) (HotSKURun, error) {
	var (
		mu     sync.Mutex
		ops    []sample
		failed error
		wg     sync.WaitGroup
	)
	start := time.Now()
	end := start.Add(h.cfg.Duration)
	b := StartBar(h.cfg.Progress, name, h.cfg.Duration.Milliseconds(), func() int64 { return time.Since(start).Milliseconds() })
	for range h.cfg.Clients {
		wg.Go(func() {
			for time.Now().Before(end) && ctx.Err() == nil {
				began := time.Now()
				ok, err := create(ctx, h.order(sku))
				mu.Lock()
				ops = append(ops, sample{start: began, took: time.Since(began), failed: !ok})
				if err != nil && failed == nil {
					failed = fmt.Errorf("bench %s: %w", name, err)
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	if failed != nil {
		return HotSKURun{}, failed
	}
	s, err := h.st.SKU(ctx, sku)
	if err != nil {
		return HotSKURun{}, err
	}
	r := hotSKURunOf(ops, took, h.cfg.Stock, reserves, s)
	r.p99 = series(ops, start, 0, took, time.Second, p99)
	b.Finish(r.String())
	return r, nil
}

// order returns a new one-unit order of sku for a random user.
func (h *hotSKU) order(sku string) order.Order {
	now := h.clock.Now()
	items := []order.Item{{SKU: sku, Qty: 1, UnitPrice: orderPrice}}
	total := order.Total(items)
	return order.Order{ID: store.NewID("ord", now), UserID: userID(rand.IntN(orderUsers)), Status: order.Unpaid,
		Items: items, CouponIDs: []string{}, Total: total, AmountDue: total,
		Deadline: now.Add(order.MaxTimeout), CreatedAt: now, UpdatedAt: now, Version: 1}
}
