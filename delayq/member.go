package delayq

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DueMillis is t in unix milliseconds rounded up, so that an item's due
// time as a queue keeps it is never before the real one.
func DueMillis(t time.Time) int64 {
	ms := t.UnixMilli()
	if t.Nanosecond()%int(time.Millisecond) != 0 {
		ms++
	}
	return ms
}

// Member encodes an item of kind due at dueMs, without its shard (the
// queue holding it tells), as "<due ms>:<kind>".
func Member(kind string, dueMs int64) string {
	return strconv.FormatInt(dueMs, 10) + ":" + kind
}

// ParseMember decodes a Member of shard's queue.
func ParseMember(shard int, m string) (Item, error) {
	ms, kind, ok := strings.Cut(m, ":")
	due, err := strconv.ParseInt(ms, 10, 64)
	if !ok || err != nil {
		return Item{}, fmt.Errorf("delayq: bad member %q in shard %d", m, shard)
	}
	return Item{Kind: kind, Shard: shard, Due: time.UnixMilli(due)}, nil
}
