-- name: StockBuckets :many
SELECT bucket, buckets, available, reserved, sold FROM skus WHERE sku = @sku ORDER BY bucket;

-- name: StockBucketsForUpdate :many
-- StockBuckets in a transaction: held until it ends.
SELECT bucket, buckets, available, reserved, sold FROM skus WHERE sku = @sku ORDER BY bucket FOR NO KEY UPDATE;

-- name: AddStock :execrows
-- The amounts added to one bucket of a SKU of buckets buckets, unless
-- available would go negative.
UPDATE skus SET available = available + @available, reserved = reserved + @reserved, sold = sold + @sold, updated_at = @now
WHERE sku = @sku AND bucket = @bucket AND buckets = @buckets AND available + @available >= 0;

-- name: NewStock :exec
INSERT INTO skus (sku, bucket, buckets, available, reserved, sold, updated_at) VALUES (@sku, 0, 1, 0, 0, 0, @now)
ON CONFLICT (sku, bucket) DO NOTHING;

-- name: PutStockBucket :exec
INSERT INTO skus (sku, bucket, buckets, available, reserved, sold, updated_at, stock)
VALUES (@sku, @bucket, @buckets, @available, @reserved, @sold, @now, @stock)
ON CONFLICT (sku, bucket) DO UPDATE SET buckets = @buckets, available = @available, reserved = @reserved, sold = @sold,
                                        updated_at = @now, stock = @stock;

-- name: DropStockBuckets :exec
-- SKU sku's buckets from bucket first on.
DELETE FROM skus WHERE sku = @sku AND bucket >= @first;

-- name: StockPage :many
-- SKUs after the SKU after summed over their buckets, by SKU.
SELECT sku, sum(available)::bigint AS available, sum(reserved)::bigint AS reserved, sum(sold)::bigint AS sold,
       max(buckets)::int AS buckets, max(stock)::bigint AS stock
FROM skus WHERE sku > @after GROUP BY sku ORDER BY sku LIMIT @page_size;
