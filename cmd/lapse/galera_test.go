package main

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/mysql/galeratest"
)

// TestGaleraFailover: TestPostgresFailover on a MariaDB Galera cluster of
// three nodes behind HAProxy (one writer, two backups): the writer's
// host dies (SIGKILL to its mariadbd); HAProxy marks it down, cuts its
// sessions and sends new connections to the next node, which the two
// surviving nodes (a quorum) let commit once they have left the dead one
// out of their view. The same guarantees hold: 503 and never 500, no
// call failing after the client's retries, nothing acknowledged lost,
// every instance writing again within the failover's time + 5 s, every
// coupon of the storm expired once, none early.
func TestGaleraFailover(t *testing.T) {
	c := galeratest.Start(t)
	acrossWriterChange(t, c, "the writer's crash", func() (*galeratest.Node, time.Time) {
		// HAProxy's writer, and its first backup.
		old, next := c.Nodes[0], c.Nodes[1]
		c.Kill(old)
		return next, time.Now()
	})
}
