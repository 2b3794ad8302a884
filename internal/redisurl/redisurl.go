// Package redisurl reads the Redis URLs lapse takes, for its delay queue
// (--redis) and its Redis stream sinks: one server's, or Redis Sentinel's,
// which names the master the sentinels watch so that the client follows
// it through a failover. Both forms are go-redis' own:
//
//	redis://[user:pass@]host[:port][/db][?option=…]     rediss://…  unix:///path
//	redis://[user:pass@]sentinel1:26379[/db]?master_name=mymaster&addr=sentinel2:26379&addr=sentinel3:26379[&password=…]
//
// A URL is Sentinel's when its query has master_name (no server URL may
// have one). In Sentinel's form the host and each addr are sentinels, the
// user and password before @ are the sentinels', and the master's are
// the username and password options. The other options are go-redis'
// (dial_timeout, read_timeout, pool_size, …).
package redisurl

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	goredis "github.com/redis/go-redis/v9"
)

// maxConns bounds the options that size connection pools: go-redis
// allocates a pool's slots when it makes the client, and panics past an
// int32.
const maxConns = 10_000

// URL is a parsed and checked Redis URL. Its zero value is not usable.
type URL struct {
	server   *goredis.Options
	sentinel *goredis.FailoverOptions
}

// Parse parses raw in either form. Its errors never repeat a password.
func Parse(raw string) (URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return URL{}, errors.New("not a URL")
	}
	if !u.Query().Has("master_name") {
		o, err := goredis.ParseURL(raw)
		if err != nil {
			return URL{}, err
		}
		return URL{server: o}, checkConns(o.PoolSize, o.MinIdleConns, o.MaxIdleConns, o.MaxActiveConns, o.MaxConcurrentDials, o.PipelinePoolSize)
	}
	o, err := goredis.ParseFailoverURL(raw)
	if err != nil {
		return URL{}, err
	}
	switch {
	case o.MasterName == "":
		return URL{}, errors.New("master_name: empty: name the master the sentinels monitor")
	case o.ReplicaOnly || o.RouteByLatency || o.RouteRandomly:
		// The failover client panics on the last two; lapse writes, so
		// it needs the master.
		return URL{}, errors.New("replica_only, route_by_latency, route_randomly: lapse writes, so it talks to the master only")
	}
	return URL{sentinel: o}, checkConns(o.PoolSize, o.MinIdleConns, o.MaxIdleConns, o.MaxActiveConns, o.MaxConcurrentDials, o.PipelinePoolSize)
}

// checkConns refuses a pool option (pool_size, min_idle_conns,
// max_idle_conns, max_active_conns, max_concurrent_dials,
// pipeline_pool_size) above maxConns.
func checkConns(sizes ...int) error {
	for _, n := range sizes {
		if n > maxConns {
			return fmt.Errorf("a pool option of %d connections: at most %d", n, maxConns)
		}
	}
	return nil
}

// Client returns a client of the server, or of the master the sentinels
// name, following it through failovers. It connects on its first command.
func (u URL) Client() *goredis.Client {
	if u.sentinel != nil {
		return goredis.NewFailoverClient(u.sentinel)
	}
	return goredis.NewClient(u.server)
}

// String names the target for messages, without credentials: the
// server's address, or the master's name and the sentinels'.
func (u URL) String() string {
	if u.sentinel != nil {
		return fmt.Sprintf("master %s via sentinels %s", u.sentinel.MasterName, strings.Join(u.sentinel.SentinelAddrs, ","))
	}
	return u.server.Addr
}

// Redacted returns raw with its passwords, the user's and the password
// option, as xxxxx, for logs.
func Redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "xxxxx"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
