package pgaftest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestFormation: a row committed on the primary survives the primary's
// crash (the standby is synchronous), the standby takes writes within
// seconds of it, and the formation's URL reaches whichever node does.
func TestFormation(t *testing.T) {
	f := Start(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, f.URL())
	if err != nil {
		t.Fatalf("connect through the formation's URL: %v", err)
	}
	if _, err := c.Exec(ctx, "CREATE TABLE acked (id int PRIMARY KEY); INSERT INTO acked VALUES (1)"); err != nil {
		t.Fatalf("write on the primary: %v", err)
	}
	c.Close(ctx)

	old := f.Primary()
	killed := time.Now()
	f.Kill(old)
	next := f.Other(old)
	at := f.WaitWritable(next, time.Minute)
	t.Logf("%s took writes %s after %s was killed", next.Name, at.Sub(killed).Round(time.Millisecond), old.Name)
	if f.Primary() != next {
		t.Fatalf("the monitor holds %s primary, want %s", f.Primary().Name, next.Name)
	}

	c, err = pgx.Connect(ctx, f.URL())
	if err != nil {
		t.Fatalf("connect through the formation's URL after the failover: %v", err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM acked").Scan(&n); err != nil || n != 1 {
		t.Fatalf("the row acknowledged before the crash: count %d, %v; want 1", n, err)
	}
	if _, err := c.Exec(ctx, "INSERT INTO acked VALUES (2)"); err != nil {
		t.Fatalf("write on the new primary: %v", err)
	}
}
