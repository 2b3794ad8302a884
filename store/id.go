package store

import (
	"encoding/binary"
	"math/rand/v2"
	"time"
)

const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns prefix_ followed by 26 characters: 48 bits of t in
// milliseconds then 80 random bits, so IDs sort by creation time and index
// inserts stay near the end of the index.
func NewID(prefix string, t time.Time) string {
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[0:8], uint64(t.UnixMilli())<<16)
	binary.BigEndian.PutUint64(raw[8:16], rand.Uint64())
	binary.BigEndian.PutUint16(raw[6:8], uint16(rand.Uint32()))
	out := make([]byte, len(prefix)+1+26)
	n := copy(out, prefix)
	out[n] = '_'
	enc := out[n+1:]
	// 128 bits as 26 base32 digits, most significant first.
	hi, lo := binary.BigEndian.Uint64(raw[0:8]), binary.BigEndian.Uint64(raw[8:16])
	for i := 25; i >= 0; i-- {
		enc[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out)
}
