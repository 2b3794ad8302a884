// Package galeratest starts a MariaDB Galera cluster for a test: three
// MariaDB nodes (the machine's mariadbd with Debian's galera-4), each a
// process group of its own with its own data directory and ports, reached
// through HAProxy (Debian's haproxy) that sends every connection to one
// writer and keeps the others as backups, as Galera is run in production.
// All of it runs from a temporary directory on free local ports, sized
// for a small machine, and is torn down when the test ends. It skips the
// test without mariadbd, galera-4 or haproxy, unless LAPSE_TEST_MARIADBD
// and LAPSE_TEST_HAPROXY name the programs (.ci/run installs them and
// sets both).
package galeratest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/user"
	"strconv"
	"testing"
	"time"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/lapsehq/lapse/internal/testtool"
)

// Database is the database the cluster holds for lapse.
const Database = "lapse"

// provider is Debian's galera-4 library.
const provider = "/usr/lib/galera/libgalera_smm.so"

// Cluster is three running Galera nodes behind HAProxy.
type Cluster struct {
	t     testing.TB
	dir   string
	Nodes [3]*Node
	proxy *proxy
}

// Start starts a cluster: the first node bootstraps it, the two others
// join it one after the other (each receives the data by rsync from a
// synced member), then HAProxy starts in front of them with the first
// node as its writer. It returns once that node takes writes through
// HAProxy.
func Start(t testing.TB) *Cluster {
	t.Helper()
	haproxy := testtool.Path(t, "LAPSE_TEST_HAPROXY", "haproxy", "haproxy")
	mariadbd := testtool.Path(t, "LAPSE_TEST_MARIADBD", "mariadbd", "mariadb-server")
	if _, err := os.Stat(provider); err != nil {
		t.Skipf("no %s: install Debian's galera-4 package", provider)
	}
	// Memory is fast and lasts as long as a test needs: the nodes' fsyncs
	// would otherwise make each DDL statement of the migrations slow.
	dir, err := os.MkdirTemp(tmpRoot(), "lapse-galera-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{t: t, dir: dir}
	c.ownedByMySQL(dir)
	t.Cleanup(c.stop)

	for i := range c.Nodes {
		c.Nodes[i] = newNode(t, fmt.Sprintf("node%d", i+1))
	}
	c.initData()
	for i, n := range c.Nodes {
		c.start(mariadbd, n, i == 0)
		c.waitSynced(n, time.Minute)
	}
	c.proxy = startProxy(t, haproxy, dir, c.Nodes[:])
	c.WaitWritable(c.Nodes[0], time.Minute)
	return c
}

// URL is lapse's store URL of the cluster: HAProxy's address.
func (c *Cluster) URL() string {
	return fmt.Sprintf("mysql://root@127.0.0.1:%d/%s", c.proxy.port, Database)
}

// Writer returns the node HAProxy sends a new connection to.
func (c *Cluster) Writer() *Node {
	c.t.Helper()
	db := c.open(c.proxyAddr(), "")
	defer db.Close()
	var name string
	if err := db.QueryRow("SELECT @@wsrep_node_name").Scan(&name); err != nil {
		c.t.Fatalf("the node behind HAProxy: %v", err)
	}
	for _, n := range c.Nodes {
		if n.Name == name {
			return n
		}
	}
	c.t.Fatalf("HAProxy sends connections to %q, not one of the cluster's nodes", name)
	return nil
}

// Kill kills node n as a crash of its host would: SIGKILL to its mariadbd
// and whatever it started.
func (c *Cluster) Kill(n *Node) {
	c.t.Helper()
	if err := n.proc.Kill(); err != nil {
		c.t.Fatalf("kill %s: %v", n.Name, err)
	}
}

// WaitWritable waits, for at most within, until a connection through
// HAProxy lands on n and a write there commits, and returns when one
// first did.
func (c *Cluster) WaitWritable(n *Node, within time.Duration) time.Time {
	c.t.Helper()
	var err error
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err = c.probe(n); err == nil {
			return time.Now()
		}
	}
	c.t.Fatalf("%s did not take writes through HAProxy within %s: %v\n%s", n.Name, within, err, n.proc.Log())
	return time.Time{}
}

// probe writes through HAProxy, and fails unless the write landed on n.
func (c *Cluster) probe(n *Node) error {
	db := c.open(c.proxyAddr(), "&timeout=1s&readTimeout=2s&writeTimeout=2s")
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var name string
	if err := conn.QueryRowContext(ctx, "SELECT @@wsrep_node_name").Scan(&name); err != nil {
		return err
	}
	if name != n.Name {
		return fmt.Errorf("HAProxy sends connections to %s", name)
	}
	_, err = conn.ExecContext(ctx, "REPLACE INTO galeratest.probe VALUES (1, NOW(6))")
	return err
}

// Log is what node n's mariadbd wrote, for a failing test's message.
func (c *Cluster) Log(n *Node) string { return n.proc.Log() }

// proxyAddr is HAProxy's address.
func (c *Cluster) proxyAddr() string { return "127.0.0.1:" + strconv.Itoa(c.proxy.port) }

// open opens a pool on root@addr, with the DSN parameters params
// ("&name=value…").
func (c *Cluster) open(addr, params string) *sql.DB {
	c.t.Helper()
	db, err := sql.Open("mysql", "root@tcp("+addr+")/?parseTime=true"+params)
	if err != nil {
		c.t.Fatal(err)
	}
	return db
}

// openUnix opens a pool on root through node n's socket.
func (c *Cluster) openUnix(n *Node) *sql.DB {
	c.t.Helper()
	cfg := gomysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.User = "unix", n.socket(c.dir), "root"
	conn, err := gomysql.NewConnector(cfg)
	if err != nil {
		c.t.Fatal(err)
	}
	return sql.OpenDB(conn)
}

// stop ends HAProxy and the nodes, gently first, and removes the
// cluster's directory.
func (c *Cluster) stop() {
	var procs []*testtool.Group
	if c.proxy != nil {
		procs = append(procs, c.proxy.proc)
	}
	for _, n := range c.Nodes {
		if n != nil && n.proc != nil {
			procs = append(procs, n.proc)
		}
	}
	testtool.Stop(15*time.Second, procs...)
	os.RemoveAll(c.dir)
}

// tmpRoot is where the cluster's directory goes: /dev/shm, memory, where
// there is one.
func tmpRoot() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		return "/dev/shm"
	}
	return ""
}

// ownedByMySQL gives path to the mysql user when the test runs as root:
// mariadbd then runs as that user (--user), and must be able to write
// there.
func (c *Cluster) ownedByMySQL(path string) {
	c.t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("mysql")
	if err != nil {
		c.t.Fatalf("the mysql user: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(path, uid, gid); err != nil {
		c.t.Fatal(err)
	}
}
