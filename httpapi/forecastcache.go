package httpapi

import (
	"sync"
	"time"
)

// forecastTTL is how long one computed forecast answers every console and
// request: counting what falls due through the due indexes took up to
// 2.9 s with a million coupons pending on PostgreSQL, and each open
// console asks every 30 s.
const forecastTTL = 15 * time.Second

// forecastCache holds the last forecast of each span asked. Its lock is
// held while one is computed, so that concurrent requests wait for that
// one computation and share it rather than each counting again.
type forecastCache struct {
	mu        sync.Mutex
	byMinutes map[int]forecastJSON
}

// get returns the forecast of minutes computed less than forecastTTL
// before now (or after it: a request that waited for a computation begun
// after it arrived shares it), or one compute makes now. A failed
// computation is not kept.
func (c *forecastCache) get(now time.Time, minutes int, compute func() (forecastJSON, error)) (forecastJSON, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.byMinutes[minutes]; ok && now.Sub(f.computed) < forecastTTL {
		return f, nil
	}
	f, err := compute()
	if err != nil {
		return forecastJSON{}, err
	}
	if c.byMinutes == nil {
		c.byMinutes = map[int]forecastJSON{}
	}
	c.byMinutes[minutes] = f
	return f, nil
}
