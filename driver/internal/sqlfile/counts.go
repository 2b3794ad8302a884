package sqlfile

import (
	"math/rand/v2"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/storetype"
)

// CountSlots is how many rows a template's count of one state is split
// over on the drivers of many writers (PostgreSQL, MySQL): a transaction
// adds its count moves to one slot, so that concurrent drain batches and
// users' transitions of one template seldom queue on one count row. A
// count is the sum of its slots.
const CountSlots = 8

// CountSlot picks a transaction's slot.
func CountSlot() int { return rand.IntN(CountSlots) }

// StateCount is a row of a driver's GetCounts query, as sqlc reads it:
// a state and its count.
type StateCount = struct {
	Status string
	N      int64
}

// TemplateInfo returns TemplateInfo's reads after template tp: its
// counts by state, from the rows of a GetCounts query (err is its error),
// then how many of its unused coupons are due, from the CountDueUnused
// query due runs once those rows are read.
func TemplateInfo[R ~StateCount](tp coupon.Template, rows []R, err error, due func() (int64, error)) (storetype.TemplateInfo, int64, error) {
	info := storetype.TemplateInfo{Template: tp}
	if err != nil {
		return info, 0, err
	}
	info.Counts = make(map[coupon.State]int64, len(rows))
	for _, r := range rows {
		c := StateCount(r)
		st, err := coupon.ParseState(c.Status)
		if err != nil {
			return info, 0, err
		}
		info.Counts[st] = c.N
	}
	n, err := due()
	return info, n, err
}
