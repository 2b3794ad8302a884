package store

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"time"
)

const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns prefix_ followed by 26 characters: 48 bits of t in
// milliseconds then 80 random bits, so IDs sort by creation time and index
// inserts stay near the end of the index.
func NewID(prefix string, t time.Time) string {
	var r [10]byte
	binary.BigEndian.PutUint64(r[0:8], rand.Uint64())
	binary.BigEndian.PutUint16(r[8:10], uint16(rand.Uint32()))
	return encodeID(prefix, t, r)
}

// DerivedID is NewID with the 80 bits taken from a hash of seed instead of
// at random: the same prefix, t and seed always give the same ID.
func DerivedID(prefix string, t time.Time, seed ...string) string {
	h := sha256.New()
	for _, s := range seed {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	var r [10]byte
	copy(r[:], h.Sum(nil))
	return encodeID(prefix, t, r)
}

// IDTime returns the characters of every ID made at t that encode t: the
// first 10 after the prefix. The 16 after them encode its 80 other bits.
// Backends that build IDs in SQL join the two.
func IDTime(t time.Time) string { return encodeID("", t, [10]byte{})[1:11] }

// encodeID writes prefix_ then, as 26 base32 digits, the 48 bits of t in
// milliseconds followed by the 80 bits of r.
func encodeID(prefix string, t time.Time, r [10]byte) string {
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[0:8], uint64(t.UnixMilli())<<16)
	copy(raw[6:16], r[:])
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
