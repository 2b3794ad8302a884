package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/lapsehq/lapse/driver"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	amqpq "github.com/lapsehq/lapse/delayq/amqp"
	redisq "github.com/lapsehq/lapse/delayq/redis"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/internal/redisurl"
	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/payhook"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

// serveConfig is what `lapse serve` is told by flags and environment.
type serveConfig struct {
	listen          string
	store           string
	log             logFlags
	batchSize       int
	sweepInterval   time.Duration
	loaderInterval  time.Duration
	operationShare  float64
	userBudget      float64
	operationBatch  int
	paymentURL      string
	paymentGrace    time.Duration
	sinks           urlList
	sinkSecret      string
	sinkMaxAttempts int
	eventRetention  time.Duration
	idempotencyTTL  time.Duration
	archiveAfter    time.Duration
	archiveInterval time.Duration
	remind          remind.Config
	instance        string
	leaseTTL        time.Duration
	maxSkew         time.Duration
	redis           string
	amqpDelay       string
	maxLockTTL      time.Duration
	readTimeout     time.Duration
	writeTimeout    time.Duration
	idleTimeout     time.Duration
	issueTimeout    time.Duration
	insecure        bool
	reconcileEvery  time.Duration
	repair          bool
	console         bool
}

// urlList is a repeatable flag. From the environment, where it is set
// once, it takes several URLs separated by spaces.
type urlList []string

func (l *urlList) String() string { return strings.Join(*l, " ") }

func (l *urlList) Set(v string) error {
	*l = append(*l, strings.Fields(v)...)
	return nil
}

// serveFlags is the flag set of lapse serve, setting c, which holds the
// defaults it starts from; its errors and help go to stderr.
// docs/configuration.md is written from it (TestConfigPage).
func serveFlags(c *serveConfig, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: lapse serve [flags]\n\nRuns the HTTP API and the expiry engine until interrupted. Each flag is\nalso read from the LAPSE_ variable its help names.\n")
		printGroupedDefaults(fs, configGroups)
	}
	fs.StringVar(&c.listen, "listen", "127.0.0.1:8080", "address to serve HTTP on; one other than loopback needs an API token, or --insecure (LAPSE_LISTEN)")
	fs.StringVar(&c.store, "store", "sqlite:lapse.db", "store URL: sqlite:<path>, postgres://… or mysql://user:pass@host:port/db (LAPSE_STORE)")
	c.log.register(fs)
	fs.IntVar(&c.batchSize, "batch-size", 1000, "rows transitioned per transaction (LAPSE_BATCH_SIZE)")
	fs.DurationVar(&c.sweepInterval, "sweep-interval", 30*time.Second, "how often the sweeper scans for missed work (LAPSE_SWEEP_INTERVAL)")
	fs.IntVar(&c.operationBatch, "operation-batch", engine.DefaultOperationBatch, "coupons a bulk void or extend works per transaction (LAPSE_OPERATION_BATCH)")
	fs.Float64Var(&c.operationShare, "operation-share", 0, "share of its time a bulk void or extend spends in batches, resting between them for checkout; 1 never rests; 0 is 0.5 on a postgres or mysql store, 0.25 on sqlite, whose one writer each batch holds (LAPSE_OPERATION_SHARE)")
	fs.Float64Var(&c.userBudget, "storm-user-budget", 0, "experimental, off by default, see docs/operations.md: pace the drains to hold users' write p99 within this multiple of its idle p99, draining flat out when no user writes (e.g. 1.5; see lapse_drain_pace); 0 never paces them (LAPSE_STORM_USER_BUDGET)")
	fs.DurationVar(&c.loaderInterval, "loader-interval", 0, "how often the timer loader reads the store for work falling due; 0 is 1s with several instances on a postgres or mysql store, a quarter of the timer wheel's horizon otherwise; an operations and testing knob (LAPSE_LOADER_INTERVAL)")
	fs.StringVar(&c.paymentURL, "payment-check-url", "", "payment-status hook asked before an order closes on timeout (LAPSE_PAYMENT_CHECK_URL)")
	fs.DurationVar(&c.paymentGrace, "payment-grace", time.Minute, "how long past its deadline an order waits for a failing payment hook before it closes anyway (LAPSE_PAYMENT_GRACE)")
	fs.Var(&c.sinks, "sink", "deliver events to this sink URL; repeatable (LAPSE_SINK, space-separated): webhook+http(s)://…, redis://…?stream=s, amqp://…?exchange=x, nats://…?subject=p")
	fs.StringVar(&c.sinkSecret, "sink-secret", "", "Standard Webhooks secret signing webhook requests, whsec_<base64 of 24 to 64 random bytes> (LAPSE_SINK_SECRET)")
	fs.IntVar(&c.sinkMaxAttempts, "sink-max-attempts", 10, "delivery attempts before an event becomes a dead letter (LAPSE_SINK_MAX_ATTEMPTS)")
	fs.DurationVar(&c.eventRetention, "event-retention", 7*24*time.Hour, "prune events older than this that every sink has delivered; 0 keeps all (LAPSE_EVENT_RETENTION)")
	fs.DurationVar(&c.idempotencyTTL, "idempotency-ttl", store.DefaultRequestTTL, "how long an Idempotency-Key holds its first response; older keys are unknown and pruned (LAPSE_IDEMPOTENCY_TTL)")
	fs.DurationVar(&c.archiveAfter, "archive-after", store.DefaultArchiveAfter, "move used, expired and voided coupons and paid or closed orders this long after their last change to the archive tables; 0 archives nothing (LAPSE_ARCHIVE_AFTER)")
	fs.DurationVar(&c.archiveInterval, "archive-interval", time.Minute, "how often the archive and the pruning of reminder history run (LAPSE_ARCHIVE_INTERVAL)")
	fs.StringVar(&c.instance, "instance", defaultInstance(), "this instance's name among those sharing a postgres or mysql store (LAPSE_INSTANCE)")
	fs.DurationVar(&c.leaseTTL, "lease-ttl", 10*time.Second, "how long a shard lease lasts unrenewed: how soon a dead instance's work passes to the others (LAPSE_LEASE_TTL)")
	fs.DurationVar(&c.maxSkew, "max-clock-skew", time.Second, "stop firing while this instance's clock is further than this from the database's (LAPSE_MAX_CLOCK_SKEW)")
	fs.StringVar(&c.redis, "redis", "", "Redis delay queue telling the instances sharing a postgres or mysql store of work falling due, redis://host:port/db, or under Sentinel redis://sentinel:26379/db?master_name=m&addr=sentinel2:26379 (LAPSE_REDIS)")
	fs.StringVar(&c.amqpDelay, "amqp-delay", "", "RabbitMQ delay queue (TTL buckets dead-lettering per shard) in place of --redis, amqp://user:pass@host:port/vhost (LAPSE_AMQP_DELAY)")
	fs.DurationVar(&c.maxLockTTL, "max-lock-ttl", httpapi.DefaultMaxLockTTL, "longest ttl a coupon lock may ask, and longest an order may hold a coupon past its expiry: how long a coupon locked in time stays redeemable (LAPSE_MAX_LOCK_TTL)")
	fs.DurationVar(&c.readTimeout, "read-timeout", 30*time.Second, "longest a request, body included, may take to arrive (LAPSE_READ_TIMEOUT)")
	fs.DurationVar(&c.writeTimeout, "write-timeout", time.Minute, "longest from a request's headers to the end of its answer (LAPSE_WRITE_TIMEOUT)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", 2*time.Minute, "how long a keep-alive connection may wait for its next request (LAPSE_IDLE_TIMEOUT)")
	fs.DurationVar(&c.issueTimeout, "issue-timeout", httpapi.DefaultIssueTimeout, "read and write timeout of a bulk issuance, whose list may stream for minutes (LAPSE_ISSUE_TIMEOUT)")
	fs.DurationVar(&c.reconcileEvery, "reconcile-interval", 5*time.Minute, "how often to check stock, open orders, coupon locks and timers against each other (see GET /v1/reconcile); 0 never (LAPSE_RECONCILE_INTERVAL)")
	fs.BoolVar(&c.repair, "repair", false, "repair what each periodic reconciliation finds, each repair with its event (LAPSE_REPAIR)")
	fs.BoolVar(&c.console, "console", true, "serve the web console at / (LAPSE_CONSOLE); --console=false leaves / and /console/ unknown (404)")
	fs.BoolVar(&c.insecure, "insecure", false, "serve open, without API tokens, on an address other than loopback while no token exists (LAPSE_INSECURE); see lapse tokens")
	remindFlags(fs, &c.remind)
	return fs
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := serveConfig{remind: remind.Default()}
	fs := serveFlags(&c, stderr)
	if err := parse(fs, args, stdout); err != nil {
		return err
	}
	if err := c.remind.Validate(); err != nil {
		return err
	}
	if c.sinkMaxAttempts < 1 {
		return fmt.Errorf("--sink-max-attempts: want at least 1, got %d", c.sinkMaxAttempts)
	}
	if c.leaseTTL < 300*time.Millisecond {
		return fmt.Errorf("--lease-ttl: want at least 300ms, got %s", c.leaseTTL)
	}
	if c.operationBatch < 1 {
		return fmt.Errorf("--operation-batch: want at least 1, got %d", c.operationBatch)
	}
	if err := checkBudget(c.userBudget); err != nil {
		return err
	}
	if !(c.operationShare >= 0 && c.operationShare <= 1) {
		return fmt.Errorf("--operation-share: want 0 to 1, got %g", c.operationShare)
	}
	if c.loaderInterval < 0 {
		return fmt.Errorf("--loader-interval: want 0 or more, got %s", c.loaderInterval)
	}
	if c.archiveAfter < 0 || c.archiveInterval <= 0 {
		return fmt.Errorf("--archive-after: want 0 or more, --archive-interval: more than 0, got %s and %s", c.archiveAfter, c.archiveInterval)
	}
	if c.reconcileEvery < 0 {
		return fmt.Errorf("--reconcile-interval: want 0 or more, got %s", c.reconcileEvery)
	}
	if c.maxSkew <= 0 {
		return fmt.Errorf("--max-clock-skew: want more than 0, got %s", c.maxSkew)
	}
	if err := c.checkDelayQueue(); err != nil {
		return err
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"max-lock-ttl", c.maxLockTTL}, {"read-timeout", c.readTimeout}, {"write-timeout", c.writeTimeout},
		{"idle-timeout", c.idleTimeout}, {"issue-timeout", c.issueTimeout}} {
		if d.v <= 0 {
			return fmt.Errorf("--%s: want more than 0, got %s", d.flag, d.v)
		}
	}
	if c.eventRetention < 0 {
		return fmt.Errorf("--event-retention: want 0 or more, got %s", c.eventRetention)
	}
	if c.idempotencyTTL <= 0 {
		return fmt.Errorf("--idempotency-ttl: want more than 0, got %s", c.idempotencyTTL)
	}
	log, err := c.log.logger(stderr)
	if err != nil {
		return err
	}
	return runServer(ctx, c, log)
}

// runServer wires store, wheel, engine, relay and HTTP API, serves until
// ctx is done, then stops in order: no new requests, the engine's batch in
// flight committed, the relay's deliveries cut off with what was
// acknowledged kept, the store closed.
func runServer(ctx context.Context, c serveConfig, log *slog.Logger) error {
	// The one clock, at the store's millisecond precision: the database's
	// once the engine has measured it, when instances share a database.
	clock := engine.NewClock(func() time.Time { return time.Now().UTC() })
	now := func() time.Time { return clock.Now().Truncate(time.Millisecond) }
	specs, err := outbox.ParseSinks(c.sinks)
	if err != nil {
		return err
	}
	secret, err := outbox.ParseWebhookSecret(c.sinkSecret)
	if err != nil {
		return fmt.Errorf("--sink-secret: %w", err)
	}
	wheel := timer.NewWheel(10*time.Millisecond, 4096, now)
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	registerBuildInfo(reg)
	var (
		// Set once the store they read is open; nil-safe before.
		metrics *engine.Metrics
		relay   *outbox.Relay
	)
	hint := engine.Hint(wheel)
	accel, closeQueue, err := openAccel(ctx, c, now, log)
	if err != nil {
		return err
	}
	defer closeQueue() // after the engine, deferred later, stopped
	if accel != nil {
		wheelHint := hint
		hint = func(tm storetype.Timer) {
			wheelHint(tm)
			accel.Hint(tm)
		}
	}
	var pace *engine.Pace
	if c.userBudget > 0 {
		pace = engine.NewPace(c.userBudget, paceKnob(c.store), time.Now)
	}
	st, err := openStore(ctx, c, store.Hooks{
		OnTimer:     hint,
		OnUserWrite: pace.Observe,
		OnEvents: func(evs []storetype.Event) {
			metrics.Committed(evs)
			relay.Notify()
		},
		OnReminders: engine.NewReminderMetrics(reg).Record,
		OnArchived:  func(what string, n int64) { metrics.Archived(what, n) },
	}, &c.remind)
	if err != nil {
		return err
	}
	defer st.Close()
	closed, err := checkCredentials(ctx, st, c, log)
	if err != nil {
		return err
	}
	metrics = engine.NewMetrics(reg, st, now)
	outage := store.NewOutage(log, reg) // the engine's and the relay's
	var eng *engine.Engine              // made below; the relay asks it only once started
	relay, err = newRelay(c, specs, secret, st, now, log, reg, outage, func() bool { return eng.Leads() })
	if err != nil {
		return err
	}
	defer relay.Stop() // closes the sinks, started or not
	cfg := engine.Config{
		Store: st, Wheel: wheel, Now: now, Log: log, Metrics: metrics, Outage: outage,
		BatchSize: c.batchSize, SweepInterval: c.sweepInterval, LoadInterval: c.loaderInterval, OperationBatch: c.operationBatch, OperationShare: engine.OperationShare(c.operationShare, storeKind(c.store) == "sqlite"), PaymentGrace: c.paymentGrace,
		ReconcileInterval: c.reconcileEvery, Repair: c.repair, Pace: pace,
		Holder: holder(c), Instance: c.instance, LeaseTTL: c.leaseTTL, MaxSkew: c.maxSkew, Clock: clock, Accel: accel,
		IdempotencyTTL: c.idempotencyTTL, ArchiveAfter: c.archiveAfter, ArchiveInterval: c.archiveInterval,
	}
	if c.paymentURL != "" {
		hook, err := payhook.New(c.paymentURL, &http.Client{})
		if err != nil {
			return err
		}
		cfg.Payments = hook
	}
	eng = engine.New(cfg)
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		return err
	}
	api := httpapi.Config{Store: st, Now: now, Log: log, Metrics: promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), Firing: eng.Err,
		IdempotencyTTL: c.idempotencyTTL, MaxLockTTL: c.maxLockTTL, IssueTimeout: c.issueTimeout, ArchiveAfter: c.archiveAfter,
		Gatherer: reg, Instance: c.instance, Embedded: storeKind(c.store) == "sqlite", NoConsole: !c.console, LeaseTTL: c.leaseTTL, Closed: closed}
	if relay != nil { // a nil *Relay in the interface would not read as none
		api.Relay = relay
	}
	// Every connection is bounded in time, so that a client sending
	// slowly, promising more body than it sends or never reading holds
	// nothing for long; the bulk issuance sets its own, longer, deadlines.
	srv := &http.Server{
		Handler:           httpapi.New(api),
		ReadHeaderTimeout: min(10*time.Second, c.readTimeout),
		ReadTimeout:       c.readTimeout,
		WriteTimeout:      c.writeTimeout,
		IdleTimeout:       c.idleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if err := eng.Start(ctx); err != nil {
		return err
	}
	defer eng.Stop()
	if err := relay.Start(ctx); err != nil {
		return err
	}
	log.Info("lapse: serving", slog.String("addr", ln.Addr().String()), slog.String("store", redact(c.store)))
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
	relay.Stop()
	log.Info("lapse: stopped")
	return nil
}

// holder is the name the engine shares the work of a postgres or mysql
// store under; an embedded sqlite store has one instance, which holds
// every shard without a lease.
func holder(c serveConfig) string {
	if storeKind(c.store) == "sqlite" {
		return ""
	}
	return c.instance
}

// newRelay makes the outbox relay of the sinks specs describe, its
// webhooks signed with secret.
func newRelay(c serveConfig, specs []outbox.SinkSpec, secret outbox.WebhookSecret, st outbox.Store, now func() time.Time, log *slog.Logger, reg prometheus.Registerer, outage *store.Outage, leads func() bool) (*outbox.Relay, error) {
	sinks := make([]outbox.Named, 0, len(specs))
	for _, s := range specs {
		n, err := s.Open(secret, now)
		if err != nil {
			return nil, err
		}
		sinks = append(sinks, n)
		switch {
		case s.Type != "webhook":
		case !secret.Signs():
			log.Warn("lapse: webhook requests go unsigned: no --sink-secret", slog.String("sink", s.Name))
		case secret.Legacy():
			log.Warn("lapse: --sink-secret is not a whsec_ secret: its bytes are the Standard Webhooks key, and requests also carry the deprecated Lapse-Signature header, which the next release drops",
				slog.String("sink", s.Name))
		}
		log.Info("lapse: sink", slog.String("name", s.Name), slog.String("type", s.Type), slog.String("url", s.Redacted()))
	}
	return outbox.New(outbox.Config{
		Store: st, Sinks: sinks, Now: now, Log: log, Registerer: reg, Outage: outage,
		MaxAttempts: c.sinkMaxAttempts, Retention: c.eventRetention, Leads: leads,
	})
}

// checkDelayQueue refuses a delay queue on sqlite, whose one instance has
// no other to tell, and two delay queues at once.
func (c serveConfig) checkDelayQueue() error {
	for _, q := range []struct{ flag, url string }{{"redis", c.redis}, {"amqp-delay", c.amqpDelay}} {
		if q.url != "" && storeKind(c.store) == "sqlite" {
			return fmt.Errorf("--%s: the delay queue is for instances sharing a postgres or mysql store, not sqlite", q.flag)
		}
	}
	if c.redis != "" && c.amqpDelay != "" {
		return fmt.Errorf("--amqp-delay: one delay queue at a time, and --redis names one")
	}
	return nil
}

// openAccel opens the delay queue --redis or --amqp-delay names, if any,
// under QueuePrefix, with the lapse clock now.
func openAccel(ctx context.Context, c serveConfig, now func() time.Time, log *slog.Logger) (*engine.Accel, func() error, error) {
	var (
		q interface {
			engine.Queue
			Close() error
		}
		err error
	)
	switch {
	case c.redis != "":
		q, err = redisq.Open(ctx, c.redis, redisq.Options{Prefix: QueuePrefix(c.store)})
		if err != nil {
			return nil, nil, fmt.Errorf("--redis: %w", err)
		}
		log.Info("lapse: delay queue", slog.String("redis", redisurl.Redacted(c.redis)))
	case c.amqpDelay != "":
		q, err = amqpq.Open(ctx, c.amqpDelay, amqpq.Options{Prefix: QueuePrefix(c.store), Now: now})
		if err != nil {
			return nil, nil, fmt.Errorf("--amqp-delay: %w", err)
		}
		log.Info("lapse: delay queue", slog.String("amqp", redact(c.amqpDelay)))
	default:
		return nil, func() error { return nil }, nil
	}
	return engine.NewAccel(q, log), q.Close, nil
}

// QueuePrefix names the delay queue's keys, exchange and queues after the
// store at url, so the instances of one store share them and those of
// another do not.
func QueuePrefix(url string) string {
	sum := fnv.New64a()
	sum.Write([]byte(url))
	return fmt.Sprintf("lapse:%x", sum.Sum64())
}

// defaultInstance names this process: host and PID.
func defaultInstance() string {
	host, err := os.Hostname()
	if err != nil {
		host = "lapse"
	}
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}

// storeKind names the kind of store a URL opens, for messages.
func storeKind(url string) string {
	kind, _, _ := strings.Cut(url, ":")
	return kind
}

// openStore opens the store c.store names; policy is the reminder policy
// of a store that plans reminders.
func openStore(ctx context.Context, c serveConfig, hooks store.Hooks, policy *remind.Config) (*store.DB, error) {
	return store.Options{Hooks: hooks, Remind: policy}.Open(openDriver(ctx, c, nil))
}

// paceKnob is the knob a pace turns first on the store at url (see
// engine.Knob): the batch on SQLite, the share of time elsewhere.
func paceKnob(url string) engine.Knob {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") || strings.HasPrefix(url, "mysql://") {
		return engine.ShareFirst
	}
	return engine.BatchFirst
}

// openDriver opens the driver of the database c.store names, migrating
// it; migrated, if set, hears what that did to the schema.
func openDriver(ctx context.Context, c serveConfig, migrated func(storetype.SchemaChange)) (driver.Driver, error) {
	url := c.store
	// A transaction idle as long as a lease is an instance paused or cut
	// off: the database ends it, so that its locks hold up no other.
	var (
		d   driver.Driver
		err error
	)
	switch {
	case strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://"):
		d, err = postgres.Open(ctx, url, postgres.Options{OnMigrated: migrated, IdleTxTimeout: c.leaseTTL})
	case strings.HasPrefix(url, "mysql://"):
		d, err = mysql.Open(ctx, url, mysql.Options{OnMigrated: migrated, IdleTxTimeout: c.leaseTTL})
	default:
		path, perr := sqlitePath(url)
		if perr != nil {
			return nil, perr
		}
		d, err = sqlite.Open(ctx, path, sqlite.Options{OnMigrated: migrated})
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// sqlitePath returns the path of a sqlite:<path> store URL.
func sqlitePath(url string) (string, error) {
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok && path != "" {
		return path, nil
	}
	return "", fmt.Errorf("--store: unsupported store URL %q (want sqlite:<path>, postgres://… or mysql://…)", redact(url))
}

// redact hides the password a store URL may carry, for errors and logs.
func redact(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Redacted()
	}
	return s
}

// checkBudget checks a --storm-user-budget: 0 (none) or above 1.
func checkBudget(b float64) error {
	if b != 0 && !(b > 1) {
		return fmt.Errorf("--storm-user-budget: want 0 (none) or above 1, got %g", b)
	}
	return nil
}
