package galeratest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/internal/testtool"
)

// proxy is the cluster's HAProxy.
type proxy struct {
	port int
	proc *testtool.Group
}

// proxyConfig is HAProxy's configuration for a cluster whose nodes are
// nodes, listening on port: TCP, every connection to the first node, the
// others backups taken in order (one at a time: Galera takes writes on
// any node, but lapse's locks, as any transaction's, hold on one node
// only, and two writers would turn its waits into certification
// failures). Each node is checked every 500 ms by a MySQL login as
// haproxy; two failures mark it down, and the sessions on it are cut at
// once, so that its clients reconnect to the next node rather than wait
// on a dead one.
func proxyConfig(port int, nodes []*Node) string {
	lines := []string{
		"global",
		"  maxconn 1000",
		"defaults",
		"  mode tcp",
		"  timeout connect 2s",
		"  timeout client 30m",
		"  timeout server 30m",
		"  timeout check 1s",
		"listen galera",
		fmt.Sprintf("  bind 127.0.0.1:%d", port),
		"  option mysql-check user haproxy post-41",
		"  default-server inter 500 fall 2 rise 2 on-marked-down shutdown-sessions",
	}
	for i, n := range nodes {
		backup := ""
		if i > 0 {
			backup = " backup"
		}
		lines = append(lines, fmt.Sprintf("  server %s 127.0.0.1:%d check%s", n.Name, n.Port, backup))
	}
	return strings.Join(lines, "\n") + "\n"
}

// startProxy starts haproxy in the foreground in front of nodes, its
// files in dir.
func startProxy(t testing.TB, haproxy, dir string, nodes []*Node) *proxy {
	t.Helper()
	p := &proxy{port: testtool.FreePort(t)}
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(proxyConfig(p.port, nodes)), 0o644); err != nil {
		t.Fatal(err)
	}
	p.proc = testtool.Start(t, exec.Command(haproxy, "-db", "-f", cfg), filepath.Join(dir, "haproxy.log"))
	return p
}
