// Package outboxtest helps test what the outbox delivers: a webhook
// Receiver that checks signatures and records the CloudEvents it accepts,
// and Check, which holds what arrived against the feed.
package outboxtest
