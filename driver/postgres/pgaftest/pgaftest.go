// Package pgaftest starts a pg_auto_failover formation for a test: a
// monitor and two PostgreSQL nodes, a primary and its synchronous
// standby, each a pg_autoctl process of its own (Debian's
// postgresql-NN-auto-failover) run as the postgres user from a temporary
// directory, on free local ports, and torn down when the test ends. The
// monitor is tuned to fail over within seconds of a node's death (see
// tuning). It runs the pg_autoctl LAPSE_TEST_PG_AUTOCTL names, or the one
// on PATH, and skips the test without either (.ci/run installs it and
// sets the variable).
package pgaftest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/internal/testtool"
)

// tuning makes the monitor declare a node dead within about two seconds
// of its last answer and promote the standby without waiting the default
// 30 s for the dead primary to confirm its demotion: a test's formation
// fails over in seconds, as a production one tuned for it would (the
// defaults, 20 s to decide and 30 s to demote, are a production choice
// against flapping, not something lapse needs).
var tuning = map[string]string{
	"pgautofailover.health_check_period":               "1000",
	"pgautofailover.health_check_timeout":              "1000",
	"pgautofailover.health_check_max_retries":          "1",
	"pgautofailover.health_check_retry_delay":          "500",
	"pgautofailover.node_considered_unhealthy_timeout": "2000",
	"pgautofailover.primary_demote_timeout":            "1000",
}

// Database is the database the formation's nodes hold for lapse.
const Database = "lapse"

// Node is one pg_autoctl process, a monitor or a PostgreSQL node.
type Node struct {
	Name string
	Port int
	proc *testtool.Group
}

// String is n's name.
func (n *Node) String() string { return n.Name }

// Formation is a running monitor and two nodes.
type Formation struct {
	t       testing.TB
	autoctl string
	dir     string
	env     []string
	Monitor *Node
	Nodes   [2]*Node
}

// Start starts a formation and waits until one node is primary and the
// other its synchronous standby. It skips t without pg_autoctl.
func Start(t testing.TB) *Formation {
	t.Helper()
	autoctl := testtool.Path(t, "LAPSE_TEST_PG_AUTOCTL", "pg_autoctl", "postgresql-15-auto-failover")
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		t.Fatalf("no /usr/lib/postgresql/*/bin/pg_ctl for pg_autoctl to run")
	}
	dir, err := os.MkdirTemp("", "lapse-pgaf-")
	if err != nil {
		t.Fatal(err)
	}
	f := &Formation{t: t, autoctl: autoctl, dir: dir, env: append(os.Environ(),
		"PATH="+filepath.Dir(bins[len(bins)-1])+":"+os.Getenv("PATH"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "data"))}
	f.ownedByPostgres()
	t.Cleanup(f.stop)

	f.Monitor = f.run("monitor", "create", "monitor", "--auth", "trust", "--no-ssl")
	mon := f.connect(f.Monitor, "pg_auto_failover", 60*time.Second)
	f.waitMonitor(mon, 60*time.Second)
	for k, v := range tuning {
		f.exec(mon, fmt.Sprintf("ALTER SYSTEM SET %s = %s", k, v))
	}
	f.exec(mon, "SELECT pg_reload_conf()")
	monitorURL := fmt.Sprintf("postgres://autoctl_node@127.0.0.1:%d/pg_auto_failover?sslmode=disable", f.Monitor.Port)
	for i := range f.Nodes {
		f.Nodes[i] = f.run(fmt.Sprintf("node%d", i+1), "create", "postgres", "--auth", "trust", "--no-ssl",
			"--dbname", Database, "--monitor", monitorURL)
		f.waitStates(mon, f.Nodes[i], map[string]bool{"single": i == 0, "primary": i == 1, "secondary": i == 1}, 90*time.Second)
	}
	return f
}

// URL is lapse's multi-host URL of the formation: the client tries each
// node and keeps the one that takes writes.
func (f *Formation) URL() string {
	hosts := make([]string, len(f.Nodes))
	for i, n := range f.Nodes {
		hosts[i] = "127.0.0.1:" + strconv.Itoa(n.Port)
	}
	return "postgres://postgres@" + strings.Join(hosts, ",") + "/" + Database +
		"?sslmode=disable&target_session_attrs=read-write&connect_timeout=2"
}

// Primary returns the node the monitor holds primary.
func (f *Formation) Primary() *Node {
	f.t.Helper()
	mon := f.connect(f.Monitor, "pg_auto_failover", 10*time.Second)
	var name string
	err := mon.QueryRow(context.Background(),
		"SELECT nodename FROM pgautofailover.node WHERE goalstate IN ('primary', 'wait_primary', 'single')").Scan(&name)
	if err != nil {
		f.t.Fatalf("the monitor names no primary: %v", err)
	}
	for _, n := range f.Nodes {
		if n.Name == name {
			return n
		}
	}
	f.t.Fatalf("the monitor's primary %q is not one of the formation's nodes", name)
	return nil
}

// Other returns the node that is not n.
func (f *Formation) Other(n *Node) *Node {
	if f.Nodes[0] == n {
		return f.Nodes[1]
	}
	return f.Nodes[0]
}

// Kill kills node n as a crash of its host would: SIGKILL to its
// pg_autoctl and its PostgreSQL, every process of its group at once.
func (f *Formation) Kill(n *Node) {
	f.t.Helper()
	if err := n.proc.Kill(); err != nil {
		f.t.Fatalf("kill %s: %v", n.Name, err)
	}
}

// WaitWritable waits, for at most within, until n takes writes (it is
// out of recovery and no longer read-only), and returns when it first
// did.
func (f *Formation) WaitWritable(n *Node, within time.Duration) time.Time {
	f.t.Helper()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := pgx.Connect(ctx, f.nodeURL(n, Database)+"&target_session_attrs=read-write")
		if err == nil {
			c.Close(ctx)
			cancel()
			return time.Now()
		}
		cancel()
	}
	f.t.Fatalf("%s did not take writes within %s", n.Name, within)
	return time.Time{}
}

// Switchover asks the monitor for a planned switchover and waits until it
// is done: the primary hands over to its standby.
func (f *Formation) Switchover() {
	f.t.Helper()
	out, err := f.command("perform", "switchover", "--pgdata", f.Nodes[0].dir(f), "--wait", "60").CombinedOutput()
	if err != nil {
		f.t.Fatalf("pg_autoctl perform switchover: %v\n%s", err, out)
	}
}

// StallStandby stops standby n's WAL receiver (SIGSTOP), so that every
// commit on the primary waits for it, already visible there but not yet
// durable; the standby's PostgreSQL and keeper stay up, so the monitor
// sees nothing amiss for the seconds a test needs. It returns the resume
// (SIGCONT), which runs at the test's end too. It needs root, as the
// formation's PostgreSQL runs as the postgres user.
func (f *Formation) StallStandby(n *Node) (resume func()) {
	f.t.Helper()
	var pid int
	if err := f.connect(n, Database, 10*time.Second).QueryRow(context.Background(),
		"SELECT pid FROM pg_stat_wal_receiver").Scan(&pid); err != nil {
		f.t.Fatalf("%s's WAL receiver: %v", n, err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		f.t.Fatalf("stop %s's WAL receiver (pid %d): %v", n, pid, err)
	}
	resume = sync.OnceFunc(func() { syscall.Kill(pid, syscall.SIGCONT) })
	f.t.Cleanup(resume)
	return resume
}

// Log is what node n's pg_autoctl wrote, for a failing test's message.
func (f *Formation) Log(n *Node) string { return n.proc.Log() }

// dir is the data directory of node n.
func (n *Node) dir(f *Formation) string { return filepath.Join(f.dir, n.Name) }

// run starts pg_autoctl's args for a node named name in the foreground
// (--run), its own process group, on a free port.
func (f *Formation) run(name string, args ...string) *Node {
	f.t.Helper()
	n := &Node{Name: name, Port: testtool.FreePort(f.t)}
	args = append(args, "--pgdata", n.dir(f), "--pgport", strconv.Itoa(n.Port), "--hostname", "127.0.0.1", "--run")
	if name != "monitor" {
		args = append(args, "--name", name)
	}
	n.proc = testtool.Start(f.t, f.command(args...), filepath.Join(f.dir, name+".log"))
	return n
}

// command is pg_autoctl with args, run as the postgres user when the test
// runs as root (PostgreSQL will not run as root).
func (f *Formation) command(args ...string) *exec.Cmd {
	if os.Geteuid() == 0 {
		args = append([]string{"-u", "postgres", "--", "env", "PATH=" + pathOf(f.env), f.autoctl}, args...)
		return f.envCmd(exec.Command("runuser", args...))
	}
	return f.envCmd(exec.Command(f.autoctl, args...))
}

func (f *Formation) envCmd(c *exec.Cmd) *exec.Cmd {
	c.Env, c.Dir = f.env, f.dir
	return c
}

// pathOf is PATH in env.
func pathOf(env []string) string {
	p := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			p = v
		}
	}
	return p
}

// ownedByPostgres gives f's directory to the postgres user when the test
// runs as root.
func (f *Formation) ownedByPostgres() {
	f.t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		f.t.Fatalf("the postgres user: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(f.dir, uid, gid); err != nil {
		f.t.Fatal(err)
	}
}

// stop ends every process of the formation, gently first (pg_autoctl
// stops its PostgreSQL), and removes its directory.
func (f *Formation) stop() {
	var procs []*testtool.Group
	for _, n := range append([]*Node{f.Monitor}, f.Nodes[:]...) {
		if n != nil {
			procs = append(procs, n.proc)
		}
	}
	testtool.Stop(15*time.Second, procs...)
	os.RemoveAll(f.dir)
}

// nodeURL is the URL of database db on node n alone.
func (f *Formation) nodeURL(n *Node, db string) string {
	return (&url.URL{Scheme: "postgres", User: url.User("postgres"), Host: "127.0.0.1:" + strconv.Itoa(n.Port),
		Path: "/" + db, RawQuery: "sslmode=disable&connect_timeout=2"}).String()
}

// connect connects to database db on n, trying for at most within while
// pg_autoctl brings it up; the connection closes when the test ends.
func (f *Formation) connect(n *Node, db string, within time.Duration) *pgx.Conn {
	f.t.Helper()
	var err error
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var c *pgx.Conn
		if c, err = pgx.Connect(context.Background(), f.nodeURL(n, db)); err == nil {
			f.t.Cleanup(func() { c.Close(context.Background()) })
			return c
		}
	}
	f.t.Fatalf("%s: %v\n%s", n.Name, err, f.Log(n))
	return nil
}

// waitMonitor waits, for at most within, until the monitor's extension
// is in place.
func (f *Formation) waitMonitor(mon *pgx.Conn, within time.Duration) {
	f.t.Helper()
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var ok bool
		if err := mon.QueryRow(context.Background(), "SELECT to_regclass('pgautofailover.node') IS NOT NULL").Scan(&ok); err == nil && ok {
			return
		}
	}
	f.t.Fatalf("the monitor has no pgautofailover.node after %s\n%s", within, f.Log(f.Monitor))
}

func (f *Formation) exec(c *pgx.Conn, sql string) {
	f.t.Helper()
	if _, err := c.Exec(context.Background(), sql); err != nil {
		f.t.Fatalf("%s: %v", sql, err)
	}
}

// waitStates waits, for at most within, until the monitor's nodes have
// reached, each, a goal state in want that they report too. Meanwhile
// it asks the first node for a checkpoint now and then: a standby's base
// backup waits for one, which the primary would otherwise spread over
// minutes.
func (f *Formation) waitStates(mon *pgx.Conn, last *Node, want map[string]bool, within time.Duration) {
	f.t.Helper()
	var states []string
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		err := mon.QueryRow(context.Background(), "SELECT coalesce(array_agg(goalstate::text || '/' || reportedstate::text ORDER BY nodeid), '{}') FROM pgautofailover.node").Scan(&states)
		if err != nil {
			f.t.Fatalf("the monitor's nodes: %v", err)
		}
		if reached(states, want) {
			return
		}
		if c, err := pgx.Connect(context.Background(), f.nodeURL(f.Nodes[0], Database)); err == nil {
			c.Exec(context.Background(), "CHECKPOINT")
			c.Close(context.Background())
		}
	}
	f.t.Fatalf("the formation's nodes are %v after %s, want each of %v\n%s", states, within, want, f.Log(last))
}

// reached reports whether every goal/reported pair in states is one goal,
// reported, that want holds.
func reached(states []string, want map[string]bool) bool {
	for _, s := range states {
		goal, reported, _ := strings.Cut(s, "/")
		if goal != reported || !want[goal] {
			return false
		}
	}
	return len(states) > 0
}
