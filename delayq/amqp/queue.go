package amqp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/lapsehq/lapse/delayq"
)

// ErrFull says the broker refused items: the queue they were for was at
// its maximum length.
var ErrFull = errors.New("delayq amqp: queue full")

// ErrClosed is what calls on a closed Queue fail with.
var ErrClosed = errors.New("delayq amqp: queue closed")

// shardHeader is the message header the due exchange routes on.
const shardHeader = "shard"

// Options configure a Queue.
type Options struct {
	// Prefix namespaces the exchange and queues; "" means "lapse".
	Prefix string
	// Lease is how long a claimed item stays unacknowledged before the
	// queue hands it back to the broker for a later claim; 0 means 30s.
	Lease time.Duration
	// Buckets are the delay queues' TTLs; none means DefaultBuckets.
	Buckets []time.Duration
	// MaxLength bounds every queue's messages; 0 means 50,000.
	MaxLength int
	// Now is the clock Add measures delays and leases end by; nil means
	// time.Now.
	Now func() time.Time
}

// Queue is a delay queue of Items in RabbitMQ, safe for concurrent use.
// It runs one goroutine, from Open to Close, that hands back the items
// whose lease ended.
type Queue struct {
	url       string
	prefix    string
	lease     time.Duration
	buckets   buckets
	maxLength int
	now       func() time.Time

	mu      sync.Mutex
	s       *session // nil until dialed, or after Close
	retryAt time.Time
	dialErr error
	closed  bool

	once sync.Once // closes
	stop chan struct{}
	done chan struct{}
}

// Open connects to the broker at url (amqp://…), declares the exchange and
// bucket queues, and returns a Queue.
func Open(ctx context.Context, url string, o Options) (*Queue, error) {
	b, err := newBuckets(o.Buckets)
	if err != nil {
		return nil, err
	}
	q := &Queue{url: url, prefix: o.Prefix, lease: o.Lease, buckets: b, maxLength: o.MaxLength, now: o.Now,
		stop: make(chan struct{}), done: make(chan struct{})}
	if q.prefix == "" {
		q.prefix = "lapse"
	}
	if q.lease <= 0 {
		q.lease = 30 * time.Second
	}
	if q.maxLength <= 0 {
		q.maxLength = 50_000
	}
	if q.now == nil {
		q.now = time.Now
	}
	if q.s, err = q.dial(); err != nil {
		return nil, fmt.Errorf("delayq amqp open: %w", err)
	}
	go q.expireLoop()
	return q, nil
}

// Add publishes each item to the bucket that fits what is left of its
// delay, or straight to its shard's due queue if that is shorter than
// every bucket, and waits for the broker's confirms. Unlike the Redis
// queue, adding an item twice queues it twice; Claim returns it once if
// both copies are there. Items the broker refused, their queue being
// full, make the error ErrFull; the others are queued.
func (q *Queue) Add(ctx context.Context, items []delayq.Item) error {
	if len(items) == 0 {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	s, err := q.session()
	if err != nil {
		return err
	}
	now := q.now()
	confirms := make([]*amqp.DeferredConfirmation, 0, len(items))
	for _, it := range items {
		dc, err := q.publish(ctx, s, it, now)
		if err != nil {
			return fmt.Errorf("delayq amqp add %d items: %w", len(items), err)
		}
		confirms = append(confirms, dc)
	}
	refused := 0
	for _, dc := range confirms {
		ok, err := dc.WaitContext(ctx)
		if err != nil {
			return fmt.Errorf("delayq amqp add %d items: confirm: %w", len(items), err)
		}
		if !ok {
			refused++
		}
	}
	if refused > 0 {
		return fmt.Errorf("%w: %d of %d items refused", ErrFull, refused, len(items))
	}
	return nil
}

// publish publishes it on s to the bucket that fits its delay from now,
// or to the due exchange, declaring its shard's due queue first so that
// it has somewhere to go when its TTL ends.
func (q *Queue) publish(ctx context.Context, s *session, it delayq.Item, now time.Time) (*amqp.DeferredConfirmation, error) {
	if _, err := s.dueQueue(q, it.Shard); err != nil {
		return nil, err
	}
	due := delayq.DueMillis(it.Due)
	exchange, key := q.dueExchange(), ""
	if b, ok := q.buckets.fit(time.UnixMilli(due).Sub(now)); ok {
		exchange, key = "", q.bucketQueue(b)
	}
	return s.ch.PublishWithDeferredConfirmWithContext(ctx, exchange, key, false, false, amqp.Publishing{
		DeliveryMode: amqp.Persistent,
		Headers:      amqp.Table{shardHeader: strconv.Itoa(it.Shard)},
		Body:         []byte(delayq.Member(it.Kind, due)),
	})
}

// expireLoop hands back the items whose lease ended, a few times a lease,
// until Close: an instance that stopped claiming (it lost its shards, or
// its clock is off) does not keep them from the next holder.
func (q *Queue) expireLoop() {
	defer close(q.done)
	t := time.NewTicker(max(q.lease/4, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-q.stop:
			return
		case <-t.C:
			q.mu.Lock()
			q.expire(q.now())
			q.mu.Unlock()
		}
	}
}

// Close closes the connection, so the broker requeues every item claimed
// and not acknowledged, and stops the queue's goroutine. It is safe to
// call twice; calls after it fail with ErrClosed.
func (q *Queue) Close() error {
	var err error
	q.once.Do(func() {
		close(q.stop)
		<-q.done
		q.mu.Lock()
		defer q.mu.Unlock()
		q.closed = true
		if q.s != nil {
			err = q.s.conn.Close()
			q.s = nil
		}
	})
	return err
}
