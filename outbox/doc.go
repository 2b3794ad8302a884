// Package outbox delivers the events every transition writes to the
// outbox table to the systems around lapse: webhooks, Redis Streams,
// RabbitMQ and NATS JetStream. Nothing on the expiry path waits for it.
//
// A Relay runs one goroutine per sink. Each reads the feed
// (Store.Events, in commit order, never skipping a committed event)
// from the sink's own stored position, hands the sink a batch, and moves
// the position past what the sink acknowledged, and only that, so a slow
// or dead sink holds back no other and a crash at any point loses
// nothing: what was in flight is sent again, with the same event IDs.
// Receivers deduplicate by ID (NATS JetStream does it on the server, from
// the Nats-Msg-Id header).
//
// A failed delivery is retried, the first unacknowledged event alone,
// with exponential backoff and jitter. After MaxAttempts it becomes a
// dead letter of that sink and the sink moves on. So that every subject
// (a coupon, an order) still sees its events in transition order, the
// later events of a subject with a dead letter are parked as dead letters
// too, without an attempt, until a replay (Relay.Replay, POST
// /v1/sinks/{name}/replay) delivers them, in feed order; if a replayed
// letter fails again, it and the rest of its subject stay dead letters.
// Events of a subject that are parked after a replay was asked for wait
// for the next one.
//
// Events are sent as CloudEvents 1.0 JSON (Encode): specversion, id,
// source (Source), type (the feed's, e.g. coupon.expired), subject, time,
// datacontenttype and data. Sink URLs are parsed by ParseSinks. Webhook
// requests carry the Standard Webhooks headers (webhook-id,
// webhook-timestamp and, with a WebhookSecret, webhook-signature).
//
// With Retention set, events older than it that every configured sink has
// passed are pruned from the front of the feed in small batches. Dead
// letters keep a copy of their event and are not pruned.
package outbox
