package redis

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/delayq"
)

// claimScript runs on one shard. KEYS: due set, in-flight set. ARGV: now
// in ms, lease end in ms, limit. It first moves up to limit in-flight
// members whose lease ended at or before now back to the due set, under
// the due time their member carries (NX: an Add that came meanwhile
// stands; a member not written by Add is dropped), then moves up to limit
// members due at or before now into the in-flight set under the lease
// end, and returns them. The due members are the first of their set, so
// one ZREMRANGEBYRANK removes them; they are added to the in-flight set
// 1000 at a time (unpack has a stack limit). Scores travel as strings so
// that no Lua number formatting touches them; both steps are bounded by
// limit so that one call never blocks Redis for long.
var claimScript = goredis.NewScript(`
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])) do
  local at = string.match(m, '^(-?%d+):')
  if at then redis.call('ZADD', KEYS[1], 'NX', at, m) end
  redis.call('ZREM', KEYS[2], m)
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
if #due > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, #due - 1) end
for i = 1, #due, 1000 do
  local zs = {}
  for j = i, math.min(i + 999, #due) do
    zs[#zs + 1] = ARGV[2]
    zs[#zs + 1] = due[j]
  end
  redis.call('ZADD', KEYS[2], unpack(zs))
end
return due
`)

// Claim, in one Lua script on shard, takes back that shard's in-flight
// items whose lease ended at or before now, then moves up to limit items
// due at or before now into the in-flight set for the Queue's lease and
// returns them, earliest first. Items not yet due are never returned. The
// caller Acks each item once its work committed. A member not written by
// Add makes Claim fail; the items claimed with it come back after the
// lease, and it does not.
func (q *Queue) Claim(ctx context.Context, shard int, now time.Time, limit int) ([]delayq.Item, error) {
	if limit <= 0 {
		return nil, nil
	}
	ms := now.UnixMilli()
	keys := []string{q.dueKey(shard), q.inflightKey(shard)}
	members, err := claimScript.Run(ctx, q.rdb, keys, ms, ms+q.lease.Milliseconds(), limit).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("delayq claim shard %d: %w", shard, err)
	}
	items := make([]delayq.Item, 0, len(members))
	for _, m := range members {
		it, err := delayq.ParseMember(shard, m)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}
