-- The stock last put of each SKU, held by every one of its buckets, so
-- that reconciliation can check available + reserved + sold against it.
-- A SKU there was holds the sum of its counters.
ALTER TABLE skus ADD COLUMN stock BIGINT NOT NULL DEFAULT 0;
UPDATE skus JOIN (SELECT sku, SUM(available + reserved + sold) AS total FROM skus GROUP BY sku) AS t
    ON t.sku = skus.sku
SET skus.stock = t.total;
