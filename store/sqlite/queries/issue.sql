-- name: TemplateIssued
SELECT issued FROM templates WHERE id = ?;

-- name: ExistingCoupons
-- Which of the IDs in the JSON array ?1 name a stored coupon.
SELECT id FROM coupons WHERE id IN (SELECT value FROM json_each(?1));

-- name: HeldCounts
-- How many coupons of template ?2 each user in the JSON array ?1 holds,
-- one row per element (a user listed twice is listed twice).
SELECT value, (SELECT count(*) FROM coupons WHERE user_id = value AND template_id = ?2)
FROM json_each(?1);

-- name: InsertIssued
-- Issues coupons of template ?2, claimed at ?3 and expiring at ?4: one for
-- each string of the JSON array ?1, a 30-character coupon ID followed by
-- the user ID.
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
SELECT substr(value, 1, 30), ?2, substr(value, 31), 'unused', ?3, ?4, ?3, 1 FROM json_each(?1);

-- name: InsertIssuedRecord
-- The record (store.Record) of the coupon.claimed events of
-- InsertIssued's coupons, in its list's order: ?1 its last position, ?2
-- how many, ?3 the first event's ID, ?4 to ?7 InsertIssued's parameters,
-- ?8 the ID time part of ?6 and ?9 the expires_at ?7 formatted. An
-- event's ID is that time part followed by the coupon ID's last 80 bits:
-- a coupon is claimed once. The data is what store.CouponEvent writes,
-- key for key.
INSERT INTO events (seq, n, id, time, body)
SELECT ?1, ?2, ?3, ?6, json_group_array(json_array(
           'evt_' || ?8 || substr(value, 15, 16), 'coupon.claimed', substr(value, 1, 30), ?6,
           json_object('reason', 'claim', 'user_id', substr(value, 31), 'template_id', ?5, 'expires_at', ?9))
       ORDER BY key)
FROM json_each(?4);
