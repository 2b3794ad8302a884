package httpapi

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
)

// TestConsoleInstances: on every store, the status lists each instance
// seen lately, by name: one that measured its clock skew with the skew in
// milliseconds and when, one that took every shard's lease with its
// shards and no skew yet.
func TestConsoleInstances(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			e := serveStore(t, b.open(t), func(c *Config) { c.Instance = "i1" })
			var s struct {
				Instances []instanceJSON `json:"instances"`
			}
			e.ok(e.get("/v1/console/status"), http.StatusOK, &s)
			if s.Instances == nil || len(s.Instances) != 0 {
				t.Fatalf("fresh store: got instances %+v, want an empty list", s.Instances)
			}
			if err := e.store.MeasuredSkew(t.Context(), store.MeasuredSkewParams{Instance: "i2", Skew: -7 * time.Millisecond}); err != nil {
				t.Fatalf("MeasuredSkew: %v", err)
			}
			if _, err := e.store.Lease(t.Context(), store.LeaseParams{Holder: "i1", TTL: time.Minute}); err != nil {
				t.Fatalf("Lease: %v", err)
			}
			e.ok(e.get("/v1/console/status"), http.StatusOK, &s)
			if len(s.Instances) != 2 {
				t.Fatalf("instances: got %+v, want i1 and i2", s.Instances)
			}
			i1, i2 := s.Instances[0], s.Instances[1]
			if i1.Name != "i1" || i1.SkewMS != nil || i1.SkewAt != nil || len(i1.Shards) != store.Shards/2 || !slices.IsSorted(i1.Shards) {
				t.Fatalf("i1: got %+v, want its fair half of the shards (i2 is live too) and no skew", i1)
			}
			if i2.Name != "i2" || i2.SkewMS == nil || *i2.SkewMS != -7 || i2.SkewAt == nil || *i2.SkewAt == "" || len(i2.Shards) != 0 {
				t.Fatalf("i2: got %+v, want skew -7 ms and no shard", i2)
			}
		})
	}
}
