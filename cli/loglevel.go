package cli

import (
	"fmt"
	"log/slog"
	"strings"
)

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
