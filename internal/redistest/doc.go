// Package redistest runs redis-server processes of a test's own, which it
// may kill without touching the Redis other tests share: a Redis Sentinel
// topology (StartTopology). It needs the machine's redis-server, as CI
// has it, and skips the test without LAPSE_TEST_REDIS, as the other Redis
// tests do.
package redistest
