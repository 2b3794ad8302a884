-- A SKU's stock split into buckets, one row each (PRIMARY KEY (sku,
-- bucket)), every row holding the SKU's bucket count in buckets; the
-- counters are the sums over the rows (see store/stock.go). Only
-- available and sold stay non-negative per bucket: a payment or a close
-- moves an order's reserved units in its own transaction's bucket, so a
-- bucket's reserved may go negative while the SKU's sum is exact. The
-- SKUs there were become bucket 0 of one.
CREATE TABLE sku_buckets (
    sku        TEXT NOT NULL,
    bucket     INTEGER NOT NULL,
    buckets    INTEGER NOT NULL,
    available  INTEGER NOT NULL CHECK (available >= 0),
    reserved   INTEGER NOT NULL,
    sold       INTEGER NOT NULL CHECK (sold >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (sku, bucket)
) WITHOUT ROWID;
INSERT INTO sku_buckets (sku, bucket, buckets, available, reserved, sold, updated_at)
SELECT sku, 0, 1, available, reserved, sold, updated_at FROM skus;
DROP TABLE skus;
ALTER TABLE sku_buckets RENAME TO skus;
