-- A user's wallet by coupon ID, the order its pages take: a page is a
-- walk from its cursor. No status in it, as in coupons_user: an expiry
-- rewrites no entry here.
CREATE INDEX coupons_wallet ON coupons (user_id, id);
CREATE INDEX coupons_archive_wallet ON coupons_archive (user_id, id);
