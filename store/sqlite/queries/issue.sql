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

-- name: InsertIssuedEvents
-- The coupon.claimed events of InsertIssued's coupons, same parameters,
-- ?5 the ID time part of ?3 and ?6 the expires_at ?4 formatted. An event's
-- ID is that time part followed by the coupon ID's last 80 bits: a coupon
-- is claimed once. The data is what store.CouponEvent writes, key for key.
INSERT INTO events (id, type, subject, time, data)
SELECT 'evt_' || ?5 || substr(value, 15, 16), 'coupon.claimed', substr(value, 1, 30), ?3,
       json_object('reason', 'claim', 'user_id', substr(value, 31), 'template_id', ?2, 'expires_at', ?6)
FROM json_each(?1);
