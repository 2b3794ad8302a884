package httpapi

import (
	"maps"
	"sync"
	"time"
)

// forecastTTL is how long one computed forecast answers every console and
// request: counting what falls due through the due indexes took up to
// 2.9 s with a million coupons pending on PostgreSQL, and each open
// console asks every 30 s.
const forecastTTL = 15 * time.Second

// forecastCache holds the last forecast of each query asked within
// forecastTTL (one made earlier is dropped when another is kept, so
// templates looked up one after another do not pile up). Its lock is
// held while one is computed, so that concurrent requests wait for that
// one computation and share it rather than each counting again.
type forecastCache struct {
	mu      sync.Mutex
	byQuery map[forecastQuery]forecastJSON
}

// get returns the forecast of q computed less than forecastTTL before
// now (or after it: a request that waited for a computation begun after
// it arrived shares it), or one compute makes now. A failed computation
// is not kept.
func (c *forecastCache) get(now time.Time, q forecastQuery, compute func() (forecastJSON, error)) (forecastJSON, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.byQuery[q]; ok && now.Sub(f.computed) < forecastTTL {
		return f, nil
	}
	f, err := compute()
	if err != nil {
		return forecastJSON{}, err
	}
	if c.byQuery == nil {
		c.byQuery = map[forecastQuery]forecastJSON{}
	}
	maps.DeleteFunc(c.byQuery, func(_ forecastQuery, old forecastJSON) bool { return now.Sub(old.computed) >= forecastTTL })
	c.byQuery[q] = f
	return f, nil
}
