package postgres_test

import (
	"context"
	"testing"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/postgres"
	"github.com/lapsehq/lapse/store/postgres/pgtest"
	"github.com/lapsehq/lapse/store/storetest"
)

// TestReminderRows: every method of store.ReminderTx, in real
// transactions.
func TestReminderRows(t *testing.T) {
	storetest.RunReminderRows(t, func(t *testing.T) store.Store {
		return open(t, pgtest.SchemaURL(t), postgres.Options{})
	}, func(ctx context.Context, s store.Store, fn func(storetest.ReminderRowsTx) error) error {
		return postgres.InReminderTx(ctx, s.(*postgres.Store), fn)
	})
}
