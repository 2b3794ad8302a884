package redis_test

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/lapsehq/lapse/delayq"
)

// modelShards and modelLease bound the model test's world.
const (
	modelShards = 3
	modelLease  = 100 * time.Millisecond
)

// model is the delay queue in memory: per shard, the due time of every
// due member and the lease end of every in-flight one, in unix ms.
type model struct {
	due, inflight [modelShards]map[string]int64
}

// take moves up to limit members of from scored at or before now, in
// score then member order, to to under score(member), keeping a score
// already in to if keep; it returns them.
func take(from, to map[string]int64, now int64, limit int, keep bool, score func(m string) int64) []string {
	var ms []string
	for m, s := range from {
		if s <= now {
			ms = append(ms, m)
		}
	}
	slices.SortFunc(ms, func(a, b string) int { return cmp.Or(cmp.Compare(from[a], from[b]), cmp.Compare(a, b)) })
	ms = ms[:min(limit, len(ms))]
	for _, m := range ms {
		delete(from, m)
		if _, ok := to[m]; !ok || !keep {
			to[m] = score(m)
		}
	}
	return ms
}

// memberOf is how the queue names an item in its sets.
func memberOf(it delayq.Item) string {
	return strconv.FormatInt(it.Due.UnixMilli(), 10) + ":" + it.Kind
}

// TestModel: any interleaving of Add, Claim, Ack and time passing leaves
// Redis as the in-memory model says, and Claim returns what the model
// claims, never an item due after now.
func TestModel(t *testing.T) {
	f := setup(t, modelLease)
	ctx := context.Background()
	rapid.Check(t, func(rt *rapid.T) {
		f.clear(t)
		var m model
		for s := range modelShards {
			m.due[s], m.inflight[s] = map[string]int64{}, map[string]int64{}
		}
		now := t0.UnixMilli()
		genItem := rapid.Custom(func(rt *rapid.T) delayq.Item {
			return delayq.Item{
				Kind:  rapid.SampledFrom([]string{"a", "b", "c:d"}).Draw(rt, "kind"),
				Shard: rapid.IntRange(0, modelShards-1).Draw(rt, "shard"),
				Due:   time.UnixMilli(now + rapid.Int64Range(-50, 200).Draw(rt, "due")),
			}
		})
		var claimed []delayq.Item
		rt.Repeat(map[string]func(*rapid.T){
			"add": func(rt *rapid.T) {
				items := rapid.SliceOfN(genItem, 1, 5).Draw(rt, "items")
				if err := f.q.Add(ctx, items); err != nil {
					rt.Fatalf("add: %v", err)
				}
				for _, it := range items {
					if _, ok := m.due[it.Shard][memberOf(it)]; !ok {
						m.due[it.Shard][memberOf(it)] = it.Due.UnixMilli()
					}
				}
			},
			"claim": func(rt *rapid.T) {
				shard := rapid.IntRange(0, modelShards-1).Draw(rt, "shard")
				limit := rapid.IntRange(1, 4).Draw(rt, "limit")
				got, err := f.q.Claim(ctx, shard, time.UnixMilli(now), limit)
				if err != nil {
					rt.Fatalf("claim: %v", err)
				}
				due, inflight := m.due[shard], m.inflight[shard]
				take(inflight, due, now, limit, true, func(mb string) int64 {
					ms, _, _ := strings.Cut(mb, ":")
					due, _ := strconv.ParseInt(ms, 10, 64)
					return due
				})
				want := take(due, inflight, now, limit, false, func(string) int64 { return now + modelLease.Milliseconds() })
				gotMembers := make([]string, len(got))
				for i, it := range got {
					if it.Shard != shard || it.Due.UnixMilli() > now {
						rt.Fatalf("claim of shard %d at %d returned %v", shard, now, it)
					}
					gotMembers[i] = memberOf(it)
				}
				if !slices.Equal(gotMembers, want) {
					rt.Fatalf("claim of shard %d at %d: got %v, want %v", shard, now, gotMembers, want)
				}
				claimed = append(claimed, got...)
			},
			"ack": func(rt *rapid.T) {
				if len(claimed) == 0 {
					rt.Skip("nothing claimed")
				}
				it := rapid.SampledFrom(claimed).Draw(rt, "item")
				if err := f.q.Ack(ctx, []delayq.Item{it}); err != nil {
					rt.Fatalf("ack: %v", err)
				}
				delete(m.inflight[it.Shard], memberOf(it))
			},
			"wait": func(rt *rapid.T) {
				now += rapid.Int64Range(0, 2*modelLease.Milliseconds()).Draw(rt, "ms")
			},
			"": func(rt *rapid.T) {
				for s := range modelShards {
					for set, want := range map[string]map[string]int64{"due": m.due[s], "inflight": m.inflight[s]} {
						zs, err := f.rdb.ZRangeWithScores(ctx, f.key(s, set), 0, -1).Result()
						if err != nil {
							rt.Fatalf("ZRANGE: %v", err)
						}
						got := map[string]int64{}
						for _, z := range zs {
							got[z.Member.(string)] = int64(z.Score)
						}
						if !maps.Equal(got, want) {
							rt.Fatalf("shard %d %s set: got %v, want %v", s, set, got, want)
						}
					}
				}
			},
		})
	})
}
