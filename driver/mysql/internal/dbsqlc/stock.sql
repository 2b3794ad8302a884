-- name: StockBuckets :many
-- A SKU's buckets a stock move decides on: held until the transaction
-- ends.
SELECT bucket, buckets, available, reserved, sold FROM skus WHERE sku = sqlc.arg(sku) ORDER BY bucket FOR UPDATE;

-- name: GetStockBuckets :many
-- StockBuckets outside a transaction: a consistent read, which waits for
-- no lock.
SELECT bucket, buckets, available, reserved, sold FROM skus WHERE sku = sqlc.arg(sku) ORDER BY bucket;

-- name: AddStock :execrows
UPDATE skus SET available = available + sqlc.arg(available), reserved = reserved + sqlc.arg(reserved),
                sold = sold + sqlc.arg(sold), updated_at = sqlc.arg(now)
WHERE sku = sqlc.arg(sku) AND bucket = sqlc.arg(bucket) AND buckets = sqlc.arg(buckets) AND available + sqlc.arg(available) >= 0;

-- name: NewStock :exec
INSERT INTO skus (sku, bucket, buckets, available, reserved, sold, updated_at) VALUES (sqlc.arg(sku), 0, 1, 0, 0, 0, sqlc.arg(now))
ON DUPLICATE KEY UPDATE sku = sku;

-- name: PutStockBucket :exec
INSERT INTO skus (sku, bucket, buckets, available, reserved, sold, updated_at, stock)
VALUES (sqlc.arg(sku), sqlc.arg(bucket), sqlc.arg(buckets), sqlc.arg(available), sqlc.arg(reserved), sqlc.arg(sold),
        sqlc.arg(now), sqlc.arg(stock))
ON DUPLICATE KEY UPDATE buckets = VALUES(buckets), available = VALUES(available), reserved = VALUES(reserved),
    sold = VALUES(sold), updated_at = VALUES(updated_at), stock = VALUES(stock);

-- name: DropStockBuckets :exec
-- SKU sku's buckets from bucket first on.
DELETE FROM skus WHERE sku = sqlc.arg(sku) AND bucket >= sqlc.arg(first);

-- name: StockPage :many
-- SKUs after the SKU after summed over their buckets, by SKU.
SELECT sku, CAST(SUM(available) AS SIGNED) AS available, CAST(SUM(reserved) AS SIGNED) AS reserved,
       CAST(SUM(sold) AS SIGNED) AS sold, CAST(MAX(buckets) AS SIGNED) AS buckets, CAST(MAX(stock) AS SIGNED) AS stock
FROM skus WHERE sku > sqlc.arg(after) GROUP BY sku ORDER BY sku LIMIT ?;
