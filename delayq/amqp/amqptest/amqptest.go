// Package amqptest helps tests use the RabbitMQ of LAPSE_TEST_AMQP, which
// other tests share: each test works under a prefix of its own, removes
// what it declared under it, and closes only its own connections.
package amqptest

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	amqp "github.com/rabbitmq/amqp091-go"
)

// URL returns LAPSE_TEST_AMQP, skipping t if it is unset.
func URL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("LAPSE_TEST_AMQP")
	if url == "" {
		t.Skip("LAPSE_TEST_AMQP unset: no RabbitMQ for the delay queue")
	}
	return url
}

// Prefix returns a fresh prefix for t, whose queues and due exchange are
// deleted when t ends.
func Prefix(t testing.TB) string {
	t.Helper()
	prefix := "lapse-test." + rand.Text()
	Cleanup(t, URL(t), prefix)
	return prefix
}

// Cleanup deletes, when t ends, the queues named prefix.… on the broker at
// url and the due exchange delayq/amqp declares for prefix.
func Cleanup(t testing.TB, url, prefix string) {
	t.Helper()
	t.Cleanup(func() {
		ch := channel(t, url)
		for name := range Queues(t, prefix) {
			if _, err := ch.QueueDelete(name, false, false, false); err != nil {
				t.Errorf("delete queue %s: %v", name, err)
			}
		}
		if err := ch.ExchangeDelete(prefix+".due", false, false); err != nil {
			t.Errorf("delete exchange %s.due: %v", prefix, err)
		}
	})
}

// Queues returns the broker's queues named prefix.… and how many messages
// each holds, ready or unacknowledged.
func Queues(t testing.TB, prefix string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, line := range ctl(t, "list_queues", "--no-table-headers", "name", "messages") {
		f := strings.Fields(line)
		if len(f) != 2 || !strings.HasPrefix(f[0], prefix+".") {
			continue
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("rabbitmqctl list_queues: %q: %v", line, err)
		}
		out[f[0]] = n
	}
	return out
}

// Purge removes every message of the queues named, on the broker at url,
// and returns how many it removed.
func Purge(t testing.TB, url string, queues []string) int {
	t.Helper()
	ch := channel(t, url)
	total := 0
	for _, name := range queues {
		n, err := ch.QueuePurge(name, false)
		if err != nil {
			t.Fatalf("purge %s: %v", name, err)
		}
		total += n
	}
	return total
}

// Connections returns the pids of the broker's connections whose client
// named them name.
func Connections(t testing.TB, name string) []string {
	t.Helper()
	var pids []string
	for _, line := range ctl(t, "list_connections", "--no-table-headers", "pid", "client_properties") {
		pid, props, ok := strings.Cut(line, "\t")
		if ok && strings.Contains(props, `"`+name+`"`) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// CloseConnections closes from the broker's side, at once, the
// connections of pids (as Connections names them), as `rabbitmqctl
// close_all_connections` would without touching the other tests'.
func CloseConnections(t testing.TB, pids []string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(pids))
	for i, pid := range pids {
		wg.Go(func() { _, errs[i] = run("close_connection", pid, "lapse test: broker-side close") })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("rabbitmqctl close_connection: %v", err)
	}
}

// ctl runs rabbitmqctl quietly and returns its output's lines.
func ctl(t testing.TB, args ...string) []string {
	t.Helper()
	lines, err := run(args...)
	if err != nil {
		t.Fatalf("rabbitmqctl %s: %v", strings.Join(args, " "), err)
	}
	return lines
}

// run runs rabbitmqctl quietly and returns its output's lines.
func run(args ...string) ([]string, error) {
	bin, err := exec.LookPath("rabbitmqctl")
	if err != nil {
		bin = "/usr/sbin/rabbitmqctl"
	}
	out, err := exec.Command(bin, append([]string{"-q"}, args...)...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n"), nil
}

// channel opens a channel on the broker at url, closed when t ends.
func channel(t testing.TB, url string) *amqp.Channel {
	t.Helper()
	conn, err := amqp.Dial(url)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	t.Cleanup(func() { conn.Close() })
	ch, err := conn.Channel()
	if err != nil {
		t.Fatalf("channel: %v", err)
	}
	return ch
}
