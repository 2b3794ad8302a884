-- The stock last put of each SKU, held by every one of its buckets, so
-- that reconciliation can check available + reserved + sold against it.
-- A SKU there was holds the sum of its counters.
ALTER TABLE skus ADD COLUMN stock bigint NOT NULL DEFAULT 0;
UPDATE skus SET stock = t.total
FROM (SELECT sku, sum(available + reserved + sold) AS total FROM skus GROUP BY sku) AS t
WHERE t.sku = skus.sku;
