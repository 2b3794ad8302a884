package driver

import (
	"time"
)

// Request is what an idempotency key holds: the fingerprint of the request
// made under it and what it got, or InFlight while that request runs over
// several transactions (a bulk issuance).
type Request struct {
	Fingerprint string
	// Status says what Body holds: RecordedResult, the JSON of the
	// result; RecordedRefusal, the code of a kept refusal; or InFlight.
	Status int
	Body   []byte
	// Created is when the request came: its Idempotency.Now, or the Now of
	// the issuance in flight.
	Created time.Time
}

// What a Request's Status says of its Body.
const (
	// InFlight: the request is under way over several transactions.
	InFlight = 0
	// RecordedResult: Body is the JSON of the request's result.
	RecordedResult = 1
	// RecordedRefusal: Body is the code of a refusal kept (see kept).
	RecordedRefusal = 2
)
