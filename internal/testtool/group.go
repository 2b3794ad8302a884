package testtool

import (
	"net"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// Group is a program a test runs as a process group of its own (a
// database server and what it starts), its output in a log file.
type Group struct {
	cmd  *exec.Cmd
	log  string
	done chan struct{} // closed once the program has ended
}

// Start starts c as a process group of its own, its output appended to
// the file log.
func Start(t testing.TB, c *exec.Cmd, log string) *Group {
	t.Helper()
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	f, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c.Stdout, c.Stderr = f, f
	if err := c.Start(); err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	g := &Group{cmd: c, log: log, done: make(chan struct{})}
	go func() { c.Wait(); close(g.done) }()
	return g
}

// Kill kills every process of g at once, as a crash of its host would
// (SIGKILL), and waits for the program to end.
func (g *Group) Kill() error {
	err := g.signal(syscall.SIGKILL)
	<-g.done
	return err
}

// Exited reports whether g's program has ended.
func (g *Group) Exited() bool {
	select {
	case <-g.done:
		return true
	default:
		return false
	}
}

// Log is what g's program wrote, for a failing test's message.
func (g *Group) Log() string {
	b, _ := os.ReadFile(g.log)
	return string(b)
}

// signal sends sig to every process of g.
func (g *Group) signal(sig syscall.Signal) error { return syscall.Kill(-g.cmd.Process.Pid, sig) }

// Stop asks every group of gs to end (SIGTERM to each of its processes),
// waits up to grace for each, and kills those that outlast it.
func Stop(grace time.Duration, gs ...*Group) {
	for _, g := range gs {
		if !g.Exited() {
			g.signal(syscall.SIGTERM)
		}
	}
	for _, g := range gs {
		select {
		case <-g.done:
		case <-time.After(grace):
			g.Kill()
		}
	}
}

// FreePort returns a local TCP port nothing listens on now.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
