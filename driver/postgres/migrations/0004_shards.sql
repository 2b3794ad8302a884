-- Shards and their leases, for many instances on one database.
--
-- A row's shard is the low four bits of the MD5 of its ID: stored, so the
-- drains filter on it inside the due indexes, and computed here, so no
-- writer can get it wrong. store.Shards is 16 to match.
ALTER TABLE coupons ADD COLUMN shard smallint NOT NULL
    GENERATED ALWAYS AS (get_byte(decode(md5(id), 'hex'), 15) % 16) STORED;
ALTER TABLE orders ADD COLUMN shard smallint NOT NULL
    GENERATED ALWAYS AS (get_byte(decode(md5(id), 'hex'), 15) % 16) STORED;

-- The due indexes carry the shard after the due time: a drain of one shard
-- walks the due range in order and skips other shards' entries in the
-- index, without reading their rows; a drain of all shards is unchanged.
DROP INDEX coupons_due;
CREATE INDEX coupons_due ON coupons (expires_at, shard, template_id) WHERE status = 'unused';
DROP INDEX coupons_lock_due;
CREATE INDEX coupons_lock_due ON coupons (locked_until, shard) WHERE status = 'locked';
DROP INDEX orders_due;
CREATE INDEX orders_due ON orders (deadline, shard) WHERE status = 'unpaid';

-- One lease per shard. token is the fencing token: it grows each time the
-- shard changes hands. A free shard has expired.
CREATE TABLE leases (
    shard      smallint PRIMARY KEY,
    holder     text NOT NULL DEFAULT '',
    token      bigint NOT NULL DEFAULT 0,
    expires_at timestamptz NOT NULL DEFAULT '-infinity'
);
INSERT INTO leases (shard) SELECT generate_series(0, 15);

-- The instances alive, by their last lease renewal: a fair share is the
-- shards over the live instances.
CREATE TABLE instances (
    holder  text PRIMARY KEY,
    seen_at timestamptz NOT NULL
);
