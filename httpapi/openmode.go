package httpapi

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// openRefusedError: in open mode, the request may come from a browser
// made to send it by a page of another site, which no credential stands
// in the way of. Its text, the detail of the 403 forbidden problem, says
// why.
type openRefusedError struct{ why string }

func (e *openRefusedError) Error() string {
	return "open mode (no API token exists) serves only this machine's own clients: " + e.why
}

// openGuard refuses, in open mode, what a browser may send on a page's
// behalf without the page being lapse's own, since no credential does:
//
//   - a Host other than a loopback name (localhost, 127.0.0.1, [::1]) or
//     the IP address the request reached, with the port it reached: a
//     page of another site whose name an attacker rebinds to this
//     machine's address (DNS rebinding) sends its own name;
//   - an Origin other than the server's own (scheme, Host), "null"
//     included;
//   - Sec-Fetch-Site cross-site, and same-site too: a site ignores the
//     port, so every other local web server (a dev server, a notebook) is
//     same-site to lapse on localhost; same-origin and none (the user's
//     own navigation) pass;
//   - a mutation (any method but GET, HEAD, OPTIONS) without a
//     Content-Type: a page may POST a form, text or nothing to another
//     site without asking, but not JSON. (Any type but JSON, or NDJSON
//     where the route takes it, is 400 malformed in either mode: see
//     mediaType.)
func openGuard(r *http.Request) error {
	if !ownHost(r) {
		return &openRefusedError{"the Host " + strconv.Quote(r.Host) + " is neither a loopback name nor the address the request reached"}
	}
	if origin := r.Header.Get("Origin"); origin != "" && !strings.EqualFold(origin, scheme(r)+"://"+r.Host) {
		return &openRefusedError{"the request comes from the page of another origin, " + strconv.Quote(origin)}
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return &openRefusedError{"the request comes from the page of another site (Sec-Fetch-Site: " + site + ")"}
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if r.Header.Get("Content-Type") == "" {
		return &openRefusedError{"a request that changes something must say Content-Type: application/json"}
	}
	return nil
}

// ownHost reports whether r's Host names this server as only its own
// machine can: a loopback name, or the IP address the request reached,
// and the port it reached.
func ownHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	at, err := netip.ParseAddrPort(local.String())
	if err != nil {
		return false
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil { // no port: the scheme's
		host, port = strings.TrimSuffix(strings.TrimPrefix(r.Host, "["), "]"), "80"
		if r.TLS != nil {
			port = "443"
		}
	}
	if port != strconv.Itoa(int(at.Port())) {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && (ip.IsLoopback() || ip.Unmap() == at.Addr().Unmap())
}

// scheme is the scheme r reached the server by.
func scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}
