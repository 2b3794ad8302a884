package httpapi

import (
	"net/http"
	"time"
)

// DefaultIssueTimeout bounds a bulk issuance when Config.IssueTimeout is
// 0: reading a list of up to maxIssueBody (on average some 300 KB/s at
// least) and issuing it.
const DefaultIssueTimeout = 15 * time.Minute

// extendDeadlines gives a bulk issuance s.issueTimeout from now to read
// its list and answer, in place of the server's own timeouts, which are
// sized for small bodies. A fixed deadline, not a minimum rate: the list
// is bounded (maxIssueBody), so the deadline bounds what a slow client
// holds. A deadline is about the connection, so it is read off the wall
// clock, not s.now.
func (s *server) extendDeadlines(w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	deadline := time.Now().Add(s.issueTimeout)
	// An error is a connection that takes no deadlines
	// (http.ErrNotSupported), whose own timeouts then hold, or one gone,
	// which the handler's reads find.
	_ = rc.SetReadDeadline(deadline)
	_ = rc.SetWriteDeadline(deadline)
}
