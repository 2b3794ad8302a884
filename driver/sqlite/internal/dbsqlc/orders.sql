-- name: StockBuckets :many
SELECT bucket, buckets, available, reserved, sold FROM skus WHERE sku = @sku ORDER BY bucket;

-- name: AddStock :execrows
UPDATE skus SET available = available + @available, reserved = reserved + @reserved, sold = sold + @sold, updated_at = @now
WHERE sku = @sku AND bucket = @bucket AND buckets = @buckets AND available + @available >= 0;

-- name: NewStock :exec
INSERT INTO skus (sku, bucket, buckets, available, reserved, sold, updated_at) VALUES (@sku, 0, 1, 0, 0, 0, @now)
ON CONFLICT (sku, bucket) DO NOTHING;

-- name: InsertOrder :exec
INSERT INTO orders (id, user_id, status, items, coupon_ids, total, discount, amount_due,
                    deadline, created_at, updated_at, version)
VALUES (@id, @user_id, 'unpaid', @items, @coupon_ids, @total, @discount, @amount_due, @deadline, @created_at, @updated_at, 1);

-- name: GetOrder :one
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id = @id;

-- name: GetArchivedOrder :one
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders_archive WHERE id = @id;

-- name: SetOrderStatus :execrows
-- The guarded order transition: only from unpaid, only at the version read.
UPDATE orders SET status = @status, close_reason = @close_reason, payment_id = @payment_id, updated_at = @updated_at, version = version + 1
WHERE id = @id AND status = 'unpaid' AND version = @version;

-- name: OpenOrders :one
SELECT count(*) FROM orders WHERE status = 'unpaid';

-- name: PutStockBucket :exec
-- The upsert reads excluded, not the parameters: sqlc leaves a named
-- parameter in DO UPDATE unrewritten.
INSERT INTO skus (sku, bucket, buckets, available, reserved, sold, updated_at, stock)
VALUES (@sku, @bucket, @buckets, @available, @reserved, @sold, @now, @stock)
ON CONFLICT (sku, bucket) DO UPDATE SET buckets = excluded.buckets, available = excluded.available,
    reserved = excluded.reserved, sold = excluded.sold, updated_at = excluded.updated_at, stock = excluded.stock;

-- name: DropStockBuckets :exec
-- SKU sku's buckets from bucket first on.
DELETE FROM skus WHERE sku = @sku AND bucket >= @first;

-- name: FinishedOrderPage :many
-- Paid and closed orders after the ID after, by ID.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id > @after AND status <> 'unpaid' ORDER BY id LIMIT @page_size;

-- name: StockPage :many
-- SKUs after the SKU after summed over their buckets, by SKU.
SELECT sku, CAST(sum(available) AS INTEGER) AS available, CAST(sum(reserved) AS INTEGER) AS reserved,
       CAST(sum(sold) AS INTEGER) AS sold, CAST(max(buckets) AS INTEGER) AS buckets, CAST(max(stock) AS INTEGER) AS stock
FROM skus WHERE sku > @after GROUP BY sku ORDER BY sku LIMIT @page_size;

-- name: CloseOrders :execrows
-- The orders of the IDs in the JSON array ids still unpaid, closed for
-- reason.
UPDATE orders SET status = 'closed', close_reason = @reason, updated_at = @updated_at, version = version + 1
WHERE id IN (SELECT value FROM json_each(@ids)) AND status = 'unpaid';
