// Package outagetest cuts a test's database off, as a restart or a
// failover does: a TCP forwarder on real sockets stands between lapse and
// the PostgreSQL or MariaDB server of LAPSE_TEST_POSTGRES or
// LAPSE_TEST_MYSQL, and Cut closes its listener and every connection
// through it until Restore; Terminator ends the store's connections on
// the server's side instead, as an administrator does. SQLite is a file
// in the process, with no network to lose: it has no outage of this
// kind, and is not among Networked.
package outagetest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"

	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/backendtest"
	"github.com/lapsehq/lapse/store/storetest"
)

// Backend is a fresh database of one networked backend, reached through
// a Forwarder.
type Backend struct {
	Name string
	// URL is the store URL of the database, through Forwarder.
	URL       string
	Forwarder *Forwarder
}

// Open opens the store at b.URL, through the forwarder, closed when t
// ends.
func (b Backend) Open(t *testing.T) *store.DB {
	t.Helper()
	if b.Name == "postgres" {
		return storetest.OpenFunc[*postgres.Driver, postgres.Options](postgres.Open).Store(t, b.URL, postgres.Options{})
	}
	return storetest.OpenFunc[*mysql.Driver, mysql.Options](mysql.Open).Store(t, b.URL, mysql.Options{})
}

// Networked returns a fresh PostgreSQL schema and a fresh MariaDB (or
// MySQL) database, each through a forwarder of its own, dropped and
// closed when t ends. It skips t unless LAPSE_TEST_POSTGRES and
// LAPSE_TEST_MYSQL are set.
func Networked(t *testing.T) []Backend {
	t.Helper()
	backendtest.NeedServers(t, "cuts PostgreSQL and MySQL/MariaDB off")
	var out []Backend
	for _, b := range []struct{ name, url string }{{"postgres", pgtest.SchemaURL(t)}, {"mysql", mysqltest.FreshDB(t)}} {
		u, err := url.Parse(b.url)
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		f := Forward(t, u.Host)
		u.Host = f.Addr()
		out = append(out, Backend{Name: b.name, URL: u.String(), Forwarder: f})
	}
	return out
}

// Forwarder passes each TCP connection made to its address on to a
// target, byte for byte, until Cut.
type Forwarder struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener // nil while cut
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

// Forward starts a Forwarder to target on a free port of 127.0.0.1; it
// stops when t ends.
func Forward(t testing.TB, target string) *Forwarder {
	t.Helper()
	f := &Forwarder{t: t, target: target, conns: map[net.Conn]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("forwarder: %v", err)
	}
	f.addr = ln.Addr().String()
	f.serve(ln)
	t.Cleanup(func() {
		f.Cut()
		f.wg.Wait()
	})
	return f
}

// Addr is the address the forwarder listens on, host:port.
func (f *Forwarder) Addr() string { return f.addr }

// Cut closes the listener, so that a new connection is refused, and
// every connection through it, as a server that goes away does.
func (f *Forwarder) Cut() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ln != nil {
		f.ln.Close()
		f.ln = nil
	}
	for c := range f.conns {
		c.Close()
		delete(f.conns, c)
	}
}

// Restore listens again on the same address. It may be called from any
// goroutine (time.AfterFunc, say): it fails the test with Errorf.
func (f *Forwarder) Restore() {
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		f.t.Errorf("forwarder: listen again on %s: %v", f.addr, err)
		return
	}
	f.serve(ln)
}

// serve accepts on ln until it is closed.
func (f *Forwarder) serve(ln net.Listener) {
	f.mu.Lock()
	f.ln = ln
	f.mu.Unlock()
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.pass(c)
		}
	}()
}

// pass connects c to the target and copies both ways until either side
// ends or Cut closes both.
func (f *Forwarder) pass(c net.Conn) {
	up, err := net.Dial("tcp", f.target)
	if err != nil {
		c.Close()
		return
	}
	f.mu.Lock()
	if f.ln == nil { // cut meanwhile
		f.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	f.conns[c], f.conns[up] = true, true
	f.mu.Unlock()
	pipe := func(dst, src net.Conn) {
		defer f.wg.Done()
		io.Copy(dst, src) // ends with either side, or with Cut
		dst.Close()
		src.Close()
		f.mu.Lock()
		delete(f.conns, dst)
		delete(f.conns, src)
		f.mu.Unlock()
	}
	f.wg.Add(2)
	go pipe(up, c)
	go pipe(c, up)
}
