-- A SKU's stock split into buckets, one row each (PRIMARY KEY (sku,
-- bucket)), every row holding the SKU's bucket count in buckets; the
-- counters are the sums over the rows (see store/stock.go). Only
-- available and sold stay non-negative per bucket: a payment or a close
-- moves an order's reserved units in its own transaction's bucket, so a
-- bucket's reserved may go negative while the SKU's sum is exact. The
-- SKUs there were become bucket 0 of one.
ALTER TABLE skus
    ADD COLUMN bucket smallint NOT NULL DEFAULT 0,
    ADD COLUMN buckets smallint NOT NULL DEFAULT 1,
    DROP CONSTRAINT skus_reserved_check,
    DROP CONSTRAINT skus_pkey,
    ADD PRIMARY KEY (sku, bucket);
ALTER TABLE skus
    ALTER COLUMN bucket DROP DEFAULT,
    ALTER COLUMN buckets DROP DEFAULT;
