package sqlfile

import (
	"math/rand/v2"

	"github.com/lapsehq/lapse/coupon"
)

// CountSlots is how many rows a template's count of one state is split
// over on the drivers of many writers (PostgreSQL, MySQL): a transaction
// adds its count moves to one slot, so that concurrent drain batches and
// users' transitions of one template seldom queue on one count row. A
// count is the sum of its slots.
const CountSlots = 8

// CountSlot picks a transaction's slot.
func CountSlot() int { return rand.IntN(CountSlots) }

// ScanStateCounts reads rows of a GetCounts query, a state and its count,
// into a template's counts by state.
func ScanStateCounts(rows Rows) (map[coupon.State]int64, error) {
	counts := map[coupon.State]int64{}
	for rows.Next() {
		var (
			status string
			n      int64
		)
		if err := rows.Scan(&status, &n); err != nil {
			return counts, err
		}
		st, err := coupon.ParseState(status)
		if err != nil {
			return counts, err
		}
		counts[st] = n
	}
	return counts, rows.Err()
}
