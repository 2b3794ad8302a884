package storetype

// Shards is how many shards the due work of a distributed store is split
// into. A coupon's or an order's shard is a hash of its ID, stored with
// the row, so one hot second spreads over every shard.
const Shards = 16

// Lease is one instance's claim on one shard of the due work. Token is its
// fencing token: it grows each time the shard changes hands, and a write
// made under an older token is refused.
type Lease struct {
	Shard  int
	Holder string
	Token  int64
}

// Leases are the leases a drain runs under.
type Leases []Lease

// Shards returns the shards a drain under ls covers: theirs, or every
// shard when there are none.
func (ls Leases) Shards() []int {
	out := make([]int, 0, Shards)
	for _, l := range ls {
		out = append(out, l.Shard)
	}
	if len(ls) == 0 {
		for s := range Shards {
			out = append(out, s)
		}
	}
	return out
}
