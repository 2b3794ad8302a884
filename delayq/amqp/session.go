package amqp

import (
	"fmt"
	"strconv"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// session is one connection to the broker and its channel, in confirm
// mode, with what was declared and got on it. Everything got and not
// acknowledged on a session the broker requeues when it ends.
type session struct {
	conn   *amqp.Connection
	ch     *amqp.Channel
	shards map[int]bool // due queues declared and bound
	held   []*held      // messages got and not yet acknowledged
}

// dialTimeout bounds a dial, and retryAfter is how long calls fail with
// the last dial's error before the next dial.
const (
	dialTimeout = 5 * time.Second
	retryAfter  = time.Second
)

// session returns the open session, dialing a new one if there is none or
// the broker closed it. Callers hold q.mu.
func (q *Queue) session() (*session, error) {
	if q.closed {
		return nil, ErrClosed
	}
	if q.s != nil && !q.s.ch.IsClosed() {
		return q.s, nil
	}
	if q.s != nil {
		q.s.conn.Close()
		q.s = nil
	}
	now := q.now()
	if now.Before(q.retryAt) {
		return nil, q.dialErr
	}
	s, err := q.dial()
	if err != nil {
		q.retryAt, q.dialErr = now.Add(retryAfter), fmt.Errorf("delayq amqp connect: %w", err)
		return nil, q.dialErr
	}
	q.s = s
	return s, nil
}

// dial connects, opens a channel in confirm mode and declares the due
// exchange and the bucket queues. The connection is named after the
// prefix, so that an operator (or a test) can tell it in the broker's
// list.
func (q *Queue) dial() (*session, error) {
	cfg := amqp.Config{Dial: amqp.DefaultDial(dialTimeout), Properties: amqp.NewConnectionProperties()}
	cfg.Properties.SetClientConnectionName(ConnectionName(q.prefix))
	conn, err := amqp.DialConfig(q.url, cfg)
	if err != nil {
		return nil, err
	}
	s := &session{conn: conn, shards: map[int]bool{}}
	if err := s.declare(q); err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

// declare opens s's channel and declares the due exchange and the bucket
// queues, each dead-lettering into the due exchange when its TTL ends.
func (s *session) declare(q *Queue) error {
	var err error
	if s.ch, err = s.conn.Channel(); err != nil {
		return err
	}
	if err := s.ch.Confirm(false); err != nil {
		return err
	}
	if err := s.ch.ExchangeDeclare(q.dueExchange(), amqp.ExchangeHeaders, true, false, false, false, nil); err != nil {
		return err
	}
	for _, b := range q.buckets {
		args := q.bounded()
		args["x-message-ttl"] = b.Milliseconds()
		args["x-dead-letter-exchange"] = q.dueExchange()
		if _, err := s.ch.QueueDeclare(q.bucketQueue(b), true, false, false, false, args); err != nil {
			return err
		}
	}
	return nil
}

// dueQueue declares shard's due queue on s, bound to the due exchange by
// its shard header, once per session, and returns its name.
func (s *session) dueQueue(q *Queue, shard int) (string, error) {
	name := q.dueQueueName(shard)
	if s.shards[shard] {
		return name, nil
	}
	if _, err := s.ch.QueueDeclare(name, true, false, false, false, q.bounded()); err != nil {
		return "", fmt.Errorf("delayq amqp declare %s: %w", name, err)
	}
	bind := amqp.Table{"x-match": "all", shardHeader: strconv.Itoa(shard)}
	if err := s.ch.QueueBind(name, "", q.dueExchange(), false, bind); err != nil {
		return "", fmt.Errorf("delayq amqp bind %s: %w", name, err)
	}
	s.shards[shard] = true
	return name, nil
}

// bounded are the arguments of a queue of at most q.maxLength messages
// that refuses what would overflow it.
func (q *Queue) bounded() amqp.Table {
	return amqp.Table{"x-max-length": int64(q.maxLength), "x-overflow": "reject-publish"}
}

// ConnectionName is the name the queue of prefix gives its connections.
func ConnectionName(prefix string) string { return "lapse delayq " + prefix }

func (q *Queue) dueExchange() string { return q.prefix + ".due" }

func (q *Queue) dueQueueName(shard int) string { return fmt.Sprintf("%s.due.%d", q.prefix, shard) }

func (q *Queue) bucketQueue(b time.Duration) string { return q.prefix + ".delay." + b.String() }
