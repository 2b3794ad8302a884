package sqlfile

import "math/rand/v2"

// CountSlots is how many rows a template's count of one state is split
// over on the drivers of many writers (PostgreSQL, MySQL): a transaction
// adds its count moves to one slot, so that concurrent drain batches and
// users' transitions of one template seldom queue on one count row. A
// count is the sum of its slots.
const CountSlots = 8

// CountSlot picks a transaction's slot.
func CountSlot() int { return rand.IntN(CountSlots) }
