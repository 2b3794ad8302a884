// Package cli is lapse's command line: `lapse serve` and the commands that
// come after it. cmd/lapse only calls Run, so tests drive the same code.
package cli
