package mysql

import (
	"context"

	"github.com/lapsehq/lapse/store/storetest"
)

// InReminderTx runs fn in one write transaction of s, committed if fn
// returns nil: for the shared tests of the reminder rows.
func InReminderTx(ctx context.Context, s *Store, fn func(storetest.ReminderRowsTx) error) error {
	_, err := inTx(ctx, s, func(t *tx) (struct{}, error) { return struct{}{}, fn(t) })
	return err
}
