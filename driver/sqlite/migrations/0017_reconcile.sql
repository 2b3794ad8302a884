-- The stock last put of each SKU, held by every one of its buckets, so
-- that reconciliation can check available + reserved + sold against it.
-- A SKU there was holds the sum of its counters.
ALTER TABLE skus ADD COLUMN stock INTEGER NOT NULL DEFAULT 0;
UPDATE skus SET stock = (SELECT sum(b.available + b.reserved + b.sold) FROM skus AS b WHERE b.sku = skus.sku);
