-- Idempotency keys expire: the pruner deletes the oldest first.
CREATE INDEX idempotency_created ON idempotency (created_at);
