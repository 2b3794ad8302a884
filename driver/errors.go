package driver

import (
	"fmt"

	"github.com/lapsehq/lapse/storetype"
)

var (
	// ErrRequestTaken: a concurrent transaction recorded a request under
	// the key this one was recording under. the service runs the request again,
	// which finds that one; elsewhere (a bulk issuance) it is an
	// ErrIdempotencyConflict.
	ErrRequestTaken = fmt.Errorf("%w: recorded by a concurrent request", storetype.ErrIdempotencyConflict)
)
