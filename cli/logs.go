package cli

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/lapsehq/lapse/internal/tty"
)

// logFlags are --log-format and --log-level, which lapse serve and every
// command after it but version take.
type logFlags struct {
	format string
	level  logLevel
}

// register adds the flags to fs.
func (l *logFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.format, "log-format", "", "log `format`: text or json (LAPSE_LOG_FORMAT; default text when stderr is a terminal, json otherwise)")
	fs.Var(&l.level, "log-level", "least severe `level` logged: debug, info, warn or error (LAPSE_LOG_LEVEL; default info)")
}

// logger makes the log the flags ask for, to w, and routes the libraries'
// logs through it (routeLibraryLogs).
func (l *logFlags) logger(w io.Writer) (*slog.Logger, error) {
	log, err := newLogger(l.format, slog.Level(l.level), w)
	if err != nil {
		return nil, err
	}
	routeLibraryLogs(log)
	return log, nil
}

// newLogger makes a log in format to w, of the records at level or above;
// format "" is text on a terminal, JSON elsewhere.
func newLogger(format string, level slog.Level, w io.Writer) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: level}
	if format == "" {
		format = "json"
		if tty.Is(w) {
			format = "text"
		}
	}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format: want text or json, got %q", format)
}

// logLevels are the values of --log-level.
var logLevels = map[string]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError,
}

// logLevel is the --log-level flag: the least severe level logged.
type logLevel slog.Level

func (l *logLevel) String() string { return strings.ToLower(slog.Level(*l).String()) }

func (l *logLevel) Set(s string) error {
	v, ok := logLevels[s]
	if !ok {
		return fmt.Errorf("want debug, info, warn or error, got %q", s)
	}
	*l = logLevel(v)
	return nil
}

// loggedTransport is the HTTP transport of the operator commands: it logs
// each request at debug, with its status and the X-Request-Id lapse
// answered with, the ID lapse's own log lines of it carry.
type loggedTransport struct{ log *slog.Logger }

func (l loggedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	res, err := http.DefaultTransport.RoundTrip(r)
	attrs := []any{slog.String("method", r.Method), slog.String("path", r.URL.RequestURI()), slog.Duration("duration", time.Since(start))}
	if err != nil {
		l.log.DebugContext(r.Context(), "lapse: request failed", append(attrs, slog.Any("err", err))...)
		return nil, err
	}
	l.log.DebugContext(r.Context(), "lapse: request", append(attrs, slog.Int("status", res.StatusCode), slog.String("request_id", res.Header.Get("X-Request-Id")))...)
	return res, nil
}
