-- Used by `lapse bench` only: the drains lapse is measured against.

-- name: NaiveExpire :execrows
-- The seeds' single UPDATE.
UPDATE coupons SET status = 'expired', updated_at = @now, version = version + 1
WHERE expires_at <= @now AND status = 'unused';

-- name: FloorExpire :execrows
-- A batch with no events, counts or ordering.
UPDATE coupons SET status = 'expired', updated_at = @now, version = version + 1
WHERE rowid IN (
    SELECT rowid FROM coupons WHERE status = 'unused' AND expires_at <= @now LIMIT @page_size);

-- name: ExpiryLags :many
SELECT updated_at - expires_at FROM coupons WHERE status = 'expired';

-- name: FloorEvent :exec
-- The hot-SKU floor's event row.
INSERT INTO floor_events (id, type, subject, time, data) VALUES (@id, @type, @subject, @time, @data);

-- name: FloorTake :execrows
-- The hot-SKU floor's guarded stock update, its last write.
UPDATE skus SET available = available - @qty WHERE sku = @sku AND available >= @qty;
