package mysql_test

import (
	"context"
	"testing"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/mysql"
	"github.com/lapsehq/lapse/store/storetest"
)

// TestReminderRows: every method of store.ReminderTx, in real
// transactions.
func TestReminderRows(t *testing.T) {
	storetest.RunReminderRows(t, func(t *testing.T) store.Store {
		return open(t, freshDB(t), mysql.Options{})
	}, func(ctx context.Context, s store.Store, fn func(storetest.ReminderRowsTx) error) error {
		return mysql.InReminderTx(ctx, s.(*mysql.Store), fn)
	})
}
