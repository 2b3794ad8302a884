package driver

import (
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// PageParams are one page of a read by key: after the key (At, After)
// (At unused where the key is After alone), up to Limit rows.
type PageParams struct {
	At    time.Time
	After string
	Limit int
}

// StockSum is a SKU's counters summed over its buckets, with the stock
// last put.
type StockSum struct {
	storetype.SKU
	Stock int64
}
