package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"log"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// TestLibraryLogs: once routed, the MySQL driver's line on a connection
// closed under it, go-redis's on a server it cannot reach, and a line
// through the standard library's log package are each a JSON record of
// lapse's log, not a plain line of the library's own.
func TestLibraryLogs(t *testing.T) {
	var out outboxtest.LogBuffer
	prev := slog.Default()
	routeLibraryLogs(slog.New(slog.NewJSONHandler(&out, nil)))
	t.Cleanup(func() { routeLibraryLogs(prev) })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // a MySQL server hanging up before its greeting
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	db, err := sql.Open("mysql", "u:p@tcp("+ln.Addr().String()+")/db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err == nil {
		t.Fatalf("ping a server hanging up: got nil, want an error")
	}

	rdb := redis.NewClient(&redis.Options{Addr: outboxtest.FreeAddr(t), MaxRetries: -1})
	defer rdb.Close()
	if err := rdb.Ping(context.Background()).Err(); err == nil {
		t.Fatalf("ping a server that is not there: got nil, want an error")
	}

	log.Print("a line of the log package")

	want := map[string]bool{"mysql: ": false, "redis: connection pool: ": false, "a line of the log package": false}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var rec struct{ Msg string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %q is not a JSON record: %v", line, err)
		}
		for prefix := range want {
			want[prefix] = want[prefix] || strings.HasPrefix(rec.Msg, prefix)
		}
	}
	for prefix, seen := range want {
		if !seen {
			t.Errorf("no record %q…; log:\n%s", prefix, out.String())
		}
	}
}
