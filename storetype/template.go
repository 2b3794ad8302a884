package storetype

import (
	"github.com/lapsehq/lapse/coupon"
)

// TemplatesParams are the inputs of Templates.
type TemplatesParams struct {
	// After is the ID of the last template a caller has seen; "" for none.
	// Newest first, the store starts a first page before NewestFirst.
	After string
	Limit int
	// Newest lists the templates newest first: by ID descending, those
	// before After.
	Newest bool
}

// TemplateInfo is a template with how many of its coupons are in each state.
type TemplateInfo struct {
	Template coupon.Template
	Counts   map[coupon.State]int64
}
