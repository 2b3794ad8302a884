package galeratest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/internal/testtool"
)

// Node is one mariadbd of the cluster.
type Node struct {
	Name string
	// Port is its MySQL port; gcomm, ist and sst are Galera's: group
	// communication, incremental and full state transfer.
	Port, gcomm, ist, sst int
	proc                  *testtool.Group
}

// newNode names a node and picks its ports.
func newNode(t testing.TB, name string) *Node {
	return &Node{Name: name, Port: testtool.FreePort(t), gcomm: testtool.FreePort(t),
		ist: testtool.FreePort(t), sst: testtool.FreePort(t)}
}

// String is n's name.
func (n *Node) String() string { return n.Name }

// providerOptions tune Galera's failure detection: a node that stops
// answering is suspected after 1.5 s and left out of the cluster's view
// (the surviving members then commit again) after 3 s at most, from
// Galera's defaults of 5 s and 15 s, as a production cluster tuned for a
// quick failover would be; and keep gcache small.
const providerOptions = "evs.keepalive_period=PT0.5S;evs.inactive_check_period=PT0.5S;" +
	"evs.suspect_timeout=PT1.5S;evs.inactive_timeout=PT3S;evs.install_timeout=PT3S;gcache.size=32M"

// config is n's option file in a cluster whose nodes are all: Galera's
// required settings (row binlog, interleaved auto-increment locks,
// InnoDB), a state transfer by rsync; sized for a test on a small
// machine (a 64 MB buffer pool, no performance schema), with the log flushed once a second rather than
// at each commit, as Galera clusters commonly run it (a commit is safe
// once the other nodes have it).
func (n *Node) config(dir string, all []*Node) string {
	members := make([]string, len(all))
	for i, m := range all {
		members[i] = fmt.Sprintf("127.0.0.1:%d", m.gcomm)
	}
	lines := []string{
		"[mysqld]",
		"datadir = " + n.datadir(dir),
		"socket = " + n.socket(dir),
		"pid-file = " + filepath.Join(dir, n.Name+".pid"),
		fmt.Sprintf("port = %d", n.Port),
		"bind-address = 127.0.0.1",
		"skip-name-resolve",
		"innodb-buffer-pool-size = 64M",
		"innodb-log-file-size = 32M",
		"innodb-flush-log-at-trx-commit = 2",
		"performance-schema = OFF",
		"binlog-format = ROW",
		"default-storage-engine = InnoDB",
		"innodb-autoinc-lock-mode = 2",
		"wsrep-on = ON",
		"wsrep-provider = " + provider,
		"wsrep-cluster-name = lapse",
		"wsrep-cluster-address = gcomm://" + strings.Join(members, ","),
		"wsrep-node-name = " + n.Name,
		fmt.Sprintf("wsrep-node-address = 127.0.0.1:%d", n.gcomm),
		fmt.Sprintf("wsrep-provider-options = \"gmcast.listen_addr=tcp://127.0.0.1:%d;ist.recv_addr=127.0.0.1:%d;%s\"",
			n.gcomm, n.ist, providerOptions),
		fmt.Sprintf("wsrep-sst-receive-address = 127.0.0.1:%d", n.sst),
		"wsrep-sst-method = rsync",
	}
	if os.Geteuid() == 0 {
		lines = append(lines, "user = mysql")
	}
	return strings.Join(lines, "\n") + "\n"
}

func (n *Node) datadir(dir string) string { return filepath.Join(dir, n.Name) }
func (n *Node) socket(dir string) string  { return filepath.Join(dir, n.Name+".sock") }

// writeConfig writes n's option file and returns its path.
func (c *Cluster) writeConfig(n *Node) string {
	c.t.Helper()
	cnf := filepath.Join(c.dir, n.Name+".cnf")
	if err := os.WriteFile(cnf, []byte(n.config(c.dir, c.Nodes[:])), 0o644); err != nil {
		c.t.Fatal(err)
	}
	return cnf
}

// start starts n's mariadbd, which bootstraps the cluster if bootstrap,
// or joins it.
func (c *Cluster) start(mariadbd string, n *Node, bootstrap bool) {
	c.t.Helper()
	args := []string{"--defaults-file=" + filepath.Join(c.dir, n.Name+".cnf")}
	if bootstrap {
		args = append(args, "--wsrep-new-cluster")
	}
	n.proc = testtool.Start(c.t, exec.Command(mariadbd, args...), filepath.Join(c.dir, n.Name+".log"))
}

// waitSynced waits, for at most within, until n reports itself synced
// with the cluster and ready for clients.
func (c *Cluster) waitSynced(n *Node, within time.Duration) {
	c.t.Helper()
	db := c.openUnix(n)
	defer db.Close()
	var state string
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if n.proc.Exited() {
			break
		}
		var name string
		if db.QueryRow("SHOW STATUS LIKE 'wsrep_local_state_comment'").Scan(&name, &state) == nil && state == "Synced" {
			return
		}
	}
	c.t.Fatalf("%s is not synced after %s (state %q)\n%s", n.Name, within, state, n.proc.Log())
}
