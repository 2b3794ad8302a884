package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/redis/go-redis/v9"
)

// routeLibraryLogs makes what the libraries lapse uses would print on
// their own to stderr records of log, beside lapse's: go-redis's (the
// delay queue, a redis sink), the MySQL driver's, NATS's asynchronous
// errors (outbox.NATS logs them to slog's default) and anything written
// through the standard library's log package, which slog.SetDefault
// redirects. net/http's server logs through its ErrorLog; pgx and
// amqp091 print nothing unless given a logger. The MySQL driver takes its
// logger when a store URL is parsed: this comes first. These loggers are
// the process's: the last call's log has them.
func routeLibraryLogs(log *slog.Logger) {
	slog.SetDefault(log)
	redis.SetLogger(redisLog{log})
	mysql.SetLogger(mysqlLog{log}) // refuses only nil
}

// redisLog is go-redis's logger: its lines are warnings, as it prints
// only what goes wrong (a connection dropped, a failover seen).
type redisLog struct{ log *slog.Logger }

func (l redisLog) Printf(ctx context.Context, format string, v ...any) {
	l.log.WarnContext(ctx, "redis: "+strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: "))
}

// mysqlLog is the MySQL driver's logger: its lines are warnings, as it
// prints only what goes wrong (a connection lost, a bad packet).
type mysqlLog struct{ log *slog.Logger }

func (l mysqlLog) Print(v ...any) {
	l.log.Warn("mysql: " + fmt.Sprint(v...))
}
