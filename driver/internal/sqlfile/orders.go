package sqlfile

import (
	"encoding/json"

	"github.com/lapsehq/lapse/order"
)

// OrderJSON is o's items and coupon IDs as the JSON arrays the stores
// without an array type (SQLite, MySQL) keep in text columns.
func OrderJSON(o order.Order) (items, coupons string) {
	i, _ := json.Marshal(o.Items)     // items always marshal
	c, _ := json.Marshal(o.CouponIDs) // strings always marshal
	return string(i), string(c)
}

// ParseOrderText sets o's status from its name, and its items and coupon
// IDs from the JSON arrays OrderJSON wrote.
func ParseOrderText(o *order.Order, status, items, coupons string) (err error) {
	if o.Status, err = order.ParseStatus(status); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(items), &o.Items); err != nil {
		return err
	}
	return json.Unmarshal([]byte(coupons), &o.CouponIDs)
}
