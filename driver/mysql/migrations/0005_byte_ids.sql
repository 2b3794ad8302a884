-- IDs compare byte for byte. utf8mb4_bin is a PAD SPACE collation on
-- MariaDB (and on MySQL 5.7): 'c1 ' equals 'c1', so a coupon was found,
-- and voided, under an ID with a trailing space. Every column that holds
-- an ID, a key or a name that is looked up becomes VARBINARY, which never
-- pads, on MariaDB and MySQL 8 alike (a NO PAD collation has another name
-- on each). A string parameter compared with a binary column is compared
-- as bytes, and the driver scans VARBINARY into a string as it was.
--
-- Sizes: IDs lapse makes (templates, coupons, orders, events) are ASCII of
-- at most 64 bytes, as before. IDs from outside (users, orders named in a
-- lock, payments, SKUs, idempotency keys) are at most 128 bytes by the
-- input rules now, but were up to 255 characters of utf8mb4 before: their
-- columns keep the 1,020 bytes those could take, so that no stored row is
-- too long for the conversion and the migration never fails half-way on
-- old data. Index sizes are unchanged.
--
-- States, kinds and event types are lapse's own constants and keep their
-- collation. Each statement may run again: a MODIFY to the type a column
-- already has changes nothing.
--
-- A change of character set copies the table (ALGORITHM=COPY), blocking
-- its writes meanwhile: on a store holding millions of coupons, plan the
-- upgrade for a quiet hour.

ALTER TABLE templates
    MODIFY id VARBINARY(64) NOT NULL;

ALTER TABLE template_counts
    MODIFY template_id VARBINARY(64) NOT NULL;

ALTER TABLE coupons
    MODIFY id          VARBINARY(64) NOT NULL,
    MODIFY template_id VARBINARY(64) NOT NULL,
    MODIFY user_id     VARBINARY(1020) NOT NULL,
    MODIFY order_id    VARBINARY(1020) NULL;

ALTER TABLE orders
    MODIFY id         VARBINARY(64) NOT NULL,
    MODIFY user_id    VARBINARY(1020) NOT NULL,
    MODIFY payment_id VARBINARY(1020) NULL;

ALTER TABLE skus
    MODIFY sku VARBINARY(1020) NOT NULL;

ALTER TABLE events
    MODIFY id      VARBINARY(64) NOT NULL,
    MODIFY subject VARBINARY(1020) NOT NULL;

ALTER TABLE idempotency
    MODIFY `key` VARBINARY(1020) NOT NULL;

ALTER TABLE leases
    MODIFY holder VARBINARY(1020) NOT NULL DEFAULT '';

ALTER TABLE instances
    MODIFY holder VARBINARY(1020) NOT NULL;
