// Package credential defines lapse's API credentials: the scopes a bearer
// token may hold, how a token is made, and how it is stored (hashed). It
// is pure: no I/O but the random source a new token is drawn from.
package credential
