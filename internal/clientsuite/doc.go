// Package clientsuite tests the Go client (the module in client/) against
// a real server over each store. It lives in the server's module so that
// the client's own module needs nothing of the server: its tests there are
// the ones that run without one.
package clientsuite
