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

// ReadTemplateInfo returns TemplateInfo's reads after template tp: its
// counts by state, from the rows of a GetCounts query (err is its error),
// then how many of its unused coupons are due, from the row of the
// CountDueUnused query due runs once those rows are read.
func ReadTemplateInfo(tp coupon.Template, counts Rows, err error, due func() Scanner) (storetype.TemplateInfo, int64, error) {
	info := storetype.TemplateInfo{Template: tp}
	if info.Counts, err = Read(counts, err, ScanStateCounts); err != nil {
		return info, 0, err
	}
	n, err := ScanInt64(due())
	return info, n, err
}

// ScanStateCounts reads rows of a GetCounts query, a state and its count,
// into a template's counts by state.
func ScanStateCounts(rows Rows) (map[coupon.State]int64, error) {
	byName, err := ScanCounts(rows)
	if err != nil {
		return nil, err
	}
	counts := make(map[coupon.State]int64, len(byName))
	for name, n := range byName {
		st, err := coupon.ParseState(name)
		if err != nil {
			return nil, err
		}
		counts[st] = n
	}
	return counts, nil
}
