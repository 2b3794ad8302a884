package amqp

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/lapsehq/lapse/delayq"
)

// held is a message got from a due queue and not yet acknowledged: an
// item not yet due, waiting in memory for less than the smallest bucket,
// or one claimed. Either way the queue gives it back to the broker at
// until: a claimed item whose lease ended, or one not due that nobody
// claimed (its shard passed to another instance).
type held struct {
	it      delayq.Item
	tag     uint64
	claimed bool
	until   time.Time
}

// Claim gets up to limit messages of shard's due queue, sends each not
// yet due back to the bucket that fits the rest or, with less than the
// smallest bucket left, holds it, then claims up to limit items held for
// shard and due at or before now, earliest first, for the Queue's lease.
// Items not yet due are never returned; copies of one item are claimed
// together. The caller Acks each item once its work committed; one not
// acknowledged within the lease goes back to the due queue for a later
// claim. A message not written by Add is dropped and fails the claim; the
// messages got with it stay held for the next.
func (q *Queue) Claim(ctx context.Context, shard int, now time.Time, limit int) ([]delayq.Item, error) {
	if limit <= 0 {
		return nil, nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.expire(now)
	s, err := q.session()
	if err != nil {
		return nil, err
	}
	name, err := s.dueQueue(q, shard)
	if err != nil {
		return nil, err
	}
	for range limit {
		d, ok, err := s.ch.Get(name, false)
		if err != nil {
			return nil, fmt.Errorf("delayq amqp claim shard %d: %w", shard, err)
		}
		if !ok {
			break
		}
		if err := q.got(ctx, s, shard, d, now); err != nil {
			return nil, err
		}
	}
	return s.claim(shard, now, now.Add(q.lease), limit), nil
}

// got holds the message d of shard's due queue, or, if a bucket fits what
// is left of its delay, publishes it there and acknowledges d once the
// broker confirmed. A bucket that refuses it, being full, drops it: a
// lost hint, which the sweeper repairs.
func (q *Queue) got(ctx context.Context, s *session, shard int, d amqp.Delivery, now time.Time) error {
	it, err := delayq.ParseMember(shard, string(d.Body))
	if err != nil {
		d.Reject(false)
		return fmt.Errorf("delayq amqp claim: %w", err)
	}
	if _, ok := q.buckets.fit(it.Due.Sub(now)); !ok {
		s.held = append(s.held, &held{it: it, tag: d.DeliveryTag, until: it.Due.Add(q.lease)})
		return nil
	}
	dc, err := q.publish(ctx, s, it, now)
	if err == nil {
		_, err = dc.WaitContext(ctx)
	}
	if err != nil {
		d.Nack(false, true)
		return fmt.Errorf("delayq amqp claim shard %d: republish: %w", shard, err)
	}
	return d.Ack(false)
}

// claim marks up to limit items held for shard and due at or before now
// claimed until, earliest first, with every copy of each, and returns
// them.
func (s *session) claim(shard int, now, until time.Time, limit int) []delayq.Item {
	var due []*held
	for _, h := range s.held {
		if h.it.Shard == shard && !h.claimed && !h.it.Due.After(now) {
			due = append(due, h)
		}
	}
	slices.SortFunc(due, func(a, b *held) int { return cmp.Or(a.it.Due.Compare(b.it.Due), cmp.Compare(a.it.Kind, b.it.Kind)) })
	var items []delayq.Item
	for _, h := range due {
		if len(items) == 0 || !same(items[len(items)-1], h.it) {
			if len(items) == limit {
				break
			}
			items = append(items, h.it)
		}
		h.claimed, h.until = true, until
	}
	return items
}

// Ack acknowledges the claimed messages of items: their work committed.
// Items the queue does not hold claimed (claimed on a connection since
// lost, whose messages the broker requeued, or acknowledged already) are
// skipped.
func (q *Queue) Ack(ctx context.Context, items []delayq.Item) error {
	if len(items) == 0 {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	if q.s == nil {
		return nil
	}
	var err error
	q.s.held = slices.DeleteFunc(q.s.held, func(h *held) bool {
		if !h.claimed || !slices.ContainsFunc(items, func(it delayq.Item) bool { return same(it, h.it) }) {
			return false
		}
		if e := q.s.ch.Ack(h.tag, false); e != nil && err == nil {
			err = fmt.Errorf("delayq amqp ack %d items: %w", len(items), e)
		}
		return true
	})
	return err
}

// expire gives back to the broker every held message whose time ended,
// requeued to its due queue. Callers hold q.mu.
func (q *Queue) expire(now time.Time) {
	if q.s == nil {
		return
	}
	q.s.held = slices.DeleteFunc(q.s.held, func(h *held) bool {
		if h.until.After(now) {
			return false
		}
		q.s.ch.Nack(h.tag, false, true) // on a lost channel the broker requeued it already
		return true
	})
}

// same reports whether a and b are one item.
func same(a, b delayq.Item) bool {
	return a.Kind == b.Kind && a.Shard == b.Shard && a.Due.Equal(b.Due)
}
