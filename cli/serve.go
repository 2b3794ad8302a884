package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/payhook"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlite"
	"github.com/lapsehq/lapse/timer"
)

// serveConfig is what `lapse serve` is told by flags and environment.
type serveConfig struct {
	listen        string
	store         string
	logFormat     string
	batchSize     int
	sweepInterval time.Duration
	paymentURL    string
	paymentGrace  time.Duration
	remind        remind.Config
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := serveConfig{remind: remind.Default()}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.listen, "listen", "127.0.0.1:8080", "address to serve HTTP on (LAPSE_LISTEN)")
	fs.StringVar(&c.store, "store", "sqlite:lapse.db", "store URL: sqlite:<path> (LAPSE_STORE)")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json (LAPSE_LOG_FORMAT)")
	fs.IntVar(&c.batchSize, "batch-size", 1000, "rows transitioned per transaction (LAPSE_BATCH_SIZE)")
	fs.DurationVar(&c.sweepInterval, "sweep-interval", 30*time.Second, "how often the sweeper scans for missed work (LAPSE_SWEEP_INTERVAL)")
	fs.StringVar(&c.paymentURL, "payment-check-url", "", "payment-status hook asked before an order closes on timeout (LAPSE_PAYMENT_CHECK_URL)")
	fs.DurationVar(&c.paymentGrace, "payment-grace", time.Minute, "how long past its deadline an order waits for a failing payment hook before it closes anyway (LAPSE_PAYMENT_GRACE)")
	remindFlags(fs, &c.remind)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := c.remind.Validate(); err != nil {
		return err
	}
	log, err := newLogger(c.logFormat, stderr)
	if err != nil {
		return err
	}
	return runServer(ctx, c, log)
}

func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("--log-format: want text or json, got %q", format)
}

// runServer wires store, wheel, engine and HTTP API, serves until ctx is
// done, then stops in order: no new requests, the engine's batch in
// flight committed, the store closed.
func runServer(ctx context.Context, c serveConfig, log *slog.Logger) error {
	// The one clock, at the store's millisecond precision.
	now := func() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
	wheel := timer.NewWheel(10*time.Millisecond, 4096, now)
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	var metrics *engine.Metrics // set once the store it reads is open; nil-safe before
	st, err := openStore(ctx, c.store, sqlite.Options{
		OnTimer:     engine.Hint(wheel),
		OnEvents:    func(evs []store.Event) { metrics.Committed(evs) },
		Remind:      &c.remind,
		OnReminders: engine.NewReminderMetrics(reg).Record,
	})
	if err != nil {
		return err
	}
	defer st.Close()
	metrics = engine.NewMetrics(reg, st, now)
	cfg := engine.Config{
		Store: st, Wheel: wheel, Now: now, Log: log, Metrics: metrics,
		BatchSize: c.batchSize, SweepInterval: c.sweepInterval, PaymentGrace: c.paymentGrace,
	}
	if c.paymentURL != "" {
		hook, err := payhook.New(c.paymentURL, &http.Client{})
		if err != nil {
			return err
		}
		cfg.Payments = hook
	}
	eng := engine.New(cfg)
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           httpapi.New(httpapi.Config{Store: st, Now: now, Log: log, Metrics: promhttp.HandlerFor(reg, promhttp.HandlerOpts{})}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	if err := eng.Start(ctx); err != nil {
		return err
	}
	defer eng.Stop()
	log.Info("lapse: serving", slog.String("addr", ln.Addr().String()), slog.String("store", c.store))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("lapse: stopping")
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	eng.Stop()
	log.Info("lapse: stopped")
	return nil
}

// openStore opens the store a URL names.
func openStore(ctx context.Context, url string, opts sqlite.Options) (store.Store, error) {
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok && path != "" {
		return sqlite.Open(ctx, path, opts)
	}
	return nil, fmt.Errorf("--store: unsupported store URL %q (want sqlite:<path>)", url)
}
