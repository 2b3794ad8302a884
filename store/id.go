package store

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
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

// seqID is NewID with its 80 bits given: hi in the first 40, lo in the
// last 40. IDs made at one t with one hi sort by lo.
func seqID(prefix string, t time.Time, hi, lo uint64) string {
	var r [10]byte
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], hi)
	copy(r[0:5], b[3:8])
	binary.BigEndian.PutUint64(b[:], lo)
	copy(r[5:10], b[3:8])
	return encodeID(prefix, t, r)
}

// newestFirst is the cursor before which a list newest first of the IDs
// NewID makes with prefix starts: '~' sorts after every character of
// theirs, in byte order.
func newestFirst(prefix string) string { return prefix + "_~" }

// lastID returns the greatest ID NewID or SeqID can make with prefix at
// t: every ID they made at or before t's millisecond sorts at or before
// it, every one made after sorts after it.
func lastID(prefix string, t time.Time) string {
	return encodeID(prefix, t, [10]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
}

// digestID returns prefix_ followed by 26 characters: the first 128 bits
// of the SHA-256 of parts, each prefixed by its length. It is the ID of
// something that must be written once however often it is asked for
// (a retried request's record), derived from inputs of any length: the
// ID's length is fixed, so it fits its column whatever the inputs.
func digestID(prefix string, parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	var raw [16]byte
	copy(raw[:], h.Sum(nil))
	return encode128(prefix, raw)
}

// idTime returns the characters of every ID made at t that encode t: the
// first 10 after the prefix. The 16 after them encode its 80 other bits.
// Backends that build IDs in SQL join the two.
func idTime(t time.Time) string { return encodeID("", t, [10]byte{})[1:11] }

// encodeID writes prefix_ then, as 26 base32 digits, the 48 bits of t in
// milliseconds followed by the 80 bits of r.
func encodeID(prefix string, t time.Time, r [10]byte) string {
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[0:8], uint64(t.UnixMilli())<<16)
	copy(raw[6:16], r[:])
	return encode128(prefix, raw)
}

// encode128 writes prefix_ then the 128 bits of raw as 26 base32 digits,
// most significant first.
func encode128(prefix string, raw [16]byte) string {
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
