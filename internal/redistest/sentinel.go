package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// Master is the name under which the sentinels monitor the master.
const Master = "lapse"

// Topology is a running master, replica and three sentinels.
type Topology struct {
	t         testing.TB
	bin       string
	root      string
	servers   map[string]*exec.Cmd // by address: the master and the replica
	clients   map[string]*goredis.Client
	sentinels map[string]*goredis.SentinelClient
	Sentinels []string // the sentinels' addresses
}

// StartTopology starts a Sentinel topology: a master, its replica and
// three sentinels watching them, each a redis-server of its own on a free
// local port with its own temporary directory, torn down when the test
// ends. The sentinels hold the master down after a second without an
// answer (down-after-milliseconds 1000) and a quorum of two promotes the
// replica. It returns once every sentinel knows the replica and the two
// other sentinels, so that a failover can happen.
func StartTopology(t testing.TB) *Topology {
	t.Helper()
	tp := &Topology{t: t, bin: Bin(t), root: t.TempDir(), servers: map[string]*exec.Cmd{},
		clients: map[string]*goredis.Client{}, sentinels: map[string]*goredis.SentinelClient{}}
	master := tp.startServer("master")
	host, port, _ := net.SplitHostPort(master)
	replica := tp.startServer("replica", "--replicaof", host, port)
	tp.waitUntil(10*time.Second, "the replica to sync", func() bool {
		info, err := tp.Client(replica).Info(context.Background(), "replication").Result()
		return err == nil && strings.Contains(info, "master_link_status:up")
	})
	for i := range 3 {
		tp.Sentinels = append(tp.Sentinels, tp.startSentinel(fmt.Sprintf("sentinel%d", i+1), master))
	}
	for _, s := range tp.Sentinels {
		sc := tp.sentinel(s)
		tp.waitUntil(30*time.Second, "sentinel "+s+" to know the replica and the other sentinels", func() bool {
			ctx := context.Background()
			rs, err1 := sc.Replicas(ctx, Master).Result()
			ss, err2 := sc.Sentinels(ctx, Master).Result()
			return err1 == nil && err2 == nil && len(rs) == 1 && len(ss) == len(tp.Sentinels)-1
		})
	}
	return tp
}

// URL is lapse's Sentinel URL of the topology, on database 0.
func (tp *Topology) URL() string {
	u := "redis://" + tp.Sentinels[0] + "/0?master_name=" + Master
	for _, s := range tp.Sentinels[1:] {
		u += "&addr=" + s
	}
	return u
}

// MasterAddr is the master's address as the first sentinel names it.
func (tp *Topology) MasterAddr() string {
	tp.t.Helper()
	addr, err := tp.sentinel(tp.Sentinels[0]).GetMasterAddrByName(context.Background(), Master).Result()
	if err != nil {
		tp.t.Fatalf("SENTINEL GET-MASTER-ADDR-BY-NAME: %v", err)
	}
	return net.JoinHostPort(addr[0], addr[1])
}

// Client is a plain client of the server at addr, without retries,
// closed when the test ends.
func (tp *Topology) Client(addr string) *goredis.Client {
	c := tp.clients[addr]
	if c == nil {
		c = goredis.NewClient(&goredis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second})
		tp.clients[addr] = c
		tp.t.Cleanup(func() { c.Close() })
	}
	return c
}

// Failover kills the master with SIGKILL, as a crash would, and waits
// until the sentinels name the replica master and it takes writes. It
// returns the old master's address, the new one's, and the time from the
// kill to the new master's first write.
func (tp *Topology) Failover() (old, promoted string, took time.Duration) {
	tp.t.Helper()
	old = tp.MasterAddr()
	cmd := tp.servers[old]
	if err := cmd.Process.Kill(); err != nil {
		tp.t.Fatalf("kill the master: %v", err)
	}
	killed := time.Now()
	cmd.Wait()
	tp.waitUntil(60*time.Second, "the sentinels to promote the replica", func() bool {
		promoted = tp.MasterAddr()
		return promoted != old && tp.Client(promoted).Set(context.Background(), "redistest:promoted", "1", 0).Err() == nil
	})
	return old, promoted, time.Since(killed)
}

// startServer starts a data node named name with extra arguments and
// returns its address.
func (tp *Topology) startServer(name string, extra ...string) string {
	tp.t.Helper()
	addr, dir := outboxtest.FreeAddr(tp.t), tp.dir(name)
	_, port, _ := net.SplitHostPort(addr)
	args := append([]string{"--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0",
		"--dir", dir, "--logfile", filepath.Join(dir, "log")}, extra...)
	tp.servers[addr] = tp.run(name, args...)
	tp.waitUntil(10*time.Second, name+" to answer", func() bool { return tp.Client(addr).Ping(context.Background()).Err() == nil })
	return addr
}

// startSentinel starts a sentinel named name watching the master at
// master and returns its address.
func (tp *Topology) startSentinel(name, master string) string {
	tp.t.Helper()
	addr, dir := outboxtest.FreeAddr(tp.t), tp.dir(name)
	host, port, _ := net.SplitHostPort(addr)
	mhost, mport, _ := net.SplitHostPort(master)
	conf := filepath.Join(dir, "sentinel.conf")
	lines := []string{
		"bind " + host, "port " + port, "dir " + dir, "logfile " + filepath.Join(dir, "log"),
		fmt.Sprintf("sentinel monitor %s %s %s 2", Master, mhost, mport),
		"sentinel down-after-milliseconds " + Master + " 1000",
		"sentinel failover-timeout " + Master + " 5000",
		"sentinel parallel-syncs " + Master + " 1",
	}
	if err := os.WriteFile(conf, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		tp.t.Fatal(err)
	}
	tp.run(name, conf, "--sentinel")
	tp.waitUntil(10*time.Second, name+" to answer", func() bool { return tp.sentinel(addr).Ping(context.Background()).Err() == nil })
	return addr
}

// run starts redis-server with args, killed when the test ends; if the
// test failed, the end of its log is logged.
func (tp *Topology) run(name string, args ...string) *exec.Cmd {
	tp.t.Helper()
	cmd := exec.Command(tp.bin, args...)
	if err := cmd.Start(); err != nil {
		tp.t.Fatalf("start %s: %v", name, err)
	}
	tp.t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if tp.t.Failed() {
			b, _ := os.ReadFile(filepath.Join(tp.dir(name), "log"))
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			tp.t.Logf("%s's log ends:\n%s", name, strings.Join(lines[max(0, len(lines)-15):], "\n"))
		}
	})
	return cmd
}

// dir is the directory of the process named name.
func (tp *Topology) dir(name string) string {
	tp.t.Helper()
	dir := filepath.Join(tp.root, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tp.t.Fatal(err)
	}
	return dir
}

// sentinel is a client of the sentinel at addr, as Client.
func (tp *Topology) sentinel(addr string) *goredis.SentinelClient {
	c := tp.sentinels[addr]
	if c == nil {
		c = goredis.NewSentinelClient(&goredis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second})
		tp.sentinels[addr] = c
		tp.t.Cleanup(func() { c.Close() })
	}
	return c
}

// waitUntil polls cond every 50ms, failing the test after timeout.
func (tp *Topology) waitUntil(timeout time.Duration, what string, cond func() bool) {
	tp.t.Helper()
	for deadline := time.Now().Add(timeout); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			tp.t.Fatalf("waited %s for %s", timeout, what)
		}
	}
}
