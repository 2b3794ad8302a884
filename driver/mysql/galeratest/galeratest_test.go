package galeratest

import (
	"database/sql"
	"testing"
	"time"
)

// TestCluster: a row committed through HAProxy before the writer's crash
// is on the node HAProxy moves to, which takes writes within seconds of
// the crash.
func TestCluster(t *testing.T) {
	c := Start(t)
	if w := c.Writer(); w != c.Nodes[0] {
		t.Fatalf("HAProxy sends connections to %s, want %s", w, c.Nodes[0])
	}
	db, err := sql.Open("mysql", "root@tcp("+c.proxyAddr()+")/"+Database)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE acked (id INT PRIMARY KEY)"); err != nil {
		t.Fatalf("create a table through HAProxy: %v", err)
	}
	if _, err := db.Exec("INSERT INTO acked VALUES (1)"); err != nil {
		t.Fatalf("write through HAProxy: %v", err)
	}

	killed := time.Now()
	c.Kill(c.Nodes[0])
	at := c.WaitWritable(c.Nodes[1], time.Minute)
	t.Logf("%s took writes through HAProxy %s after %s was killed", c.Nodes[1], at.Sub(killed).Round(time.Millisecond), c.Nodes[0])

	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM acked").Scan(&n); err != nil || n != 1 {
		t.Fatalf("the row acknowledged before the crash: count %d, %v; want 1", n, err)
	}
	if _, err := db.Exec("INSERT INTO acked VALUES (2)"); err != nil {
		t.Fatalf("write on the new writer: %v", err)
	}
	if w := c.Writer(); w != c.Nodes[1] {
		t.Fatalf("HAProxy sends connections to %s after the crash, want %s", w, c.Nodes[1])
	}
}
