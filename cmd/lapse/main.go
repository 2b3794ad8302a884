// Command lapse expires coupons and closes unpaid orders on time.
// See README.md; `lapse help` lists the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/lapsehq/lapse/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, cli.ErrUsage): // already said, with the help
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "lapse:", err)
		os.Exit(1)
	}
}
