package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"

	"github.com/lapsehq/lapse/httpapi"
	"github.com/lapsehq/lapse/storetype"
)

// checkCredentials decides whether serve may serve on c.listen with the
// tokens st holds. Once a token exists (live or revoked), every route but
// the health checks needs one, wherever lapse listens. While none exists,
// lapse serves open: on a loopback address, which only this machine
// reaches, it says so in its log; on any other, it refuses to start
// unless --insecure says to serve open anyway. closed says a token
// exists: the server is to stay closed, even once every token row is gone
// (httpapi.Config.Closed).
func checkCredentials(ctx context.Context, st tokenReader, c serveConfig, log *slog.Logger) (closed bool, err error) {
	tks, err := st.Tokens(ctx)
	if err != nil {
		return false, fmt.Errorf("read API tokens: %w", err)
	}
	switch {
	case len(tks) > 0:
		live := 0
		for _, tk := range tks {
			if !tk.Revoked() {
				live++
			}
		}
		log.Info("lapse: API tokens required", slog.Int("live", live), slog.Int("revoked", len(tks)-live),
			slog.Duration("refresh", httpapi.DefaultTokenRefresh))
	case loopback(c.listen):
		log.Warn("lapse: no API token exists: serving open to this machine only (loopback); " +
			"`lapse tokens create` makes every route but the health checks need one")
	case c.insecure:
		log.Warn("lapse: no API token exists: serving open to anyone who reaches "+c.listen+" (--insecure)",
			slog.String("addr", c.listen))
	default:
		return false, fmt.Errorf("lapse serve: no API token exists and --listen %s is not a loopback address, so anyone reaching it "+
			"could void coupons and read every event: create one first (lapse tokens create --name NAME --scopes "+
			"wallet,orders --store ...), listen on 127.0.0.1, or pass --insecure to serve open", c.listen)
	}
	return len(tks) > 0, nil
}

// loopback reports whether the listen address addr is reachable only from
// this machine: a loopback IP or "localhost". An empty host (all
// interfaces) or any other name is not.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// tokenReader reads the API tokens: what checkCredentials needs of the
// store.
type tokenReader interface {
	Tokens(ctx context.Context) ([]storetype.Token, error)
}
