package store

import (
	"context"

	"github.com/lapsehq/lapse/driver"
)

// eachRow calls each with every row page returns, read on db's executor
// (see read) a page of p.Limit at a time from p on; after a full page,
// next moves p past the page's last row.
func eachRow[T any](ctx context.Context, db *DB, p driver.PageParams, page func(driver.Executor, context.Context, driver.PageParams) ([]T, error), next func(last T, p *driver.PageParams), each func(T) error) error {
	for {
		rows, err := read(ctx, db, func(x driver.Executor) ([]T, error) { return page(x, ctx, p) })
		if err != nil {
			return err
		}
		for _, row := range rows {
			if err := each(row); err != nil {
				return err
			}
		}
		if len(rows) < p.Limit {
			return nil
		}
		next(rows[len(rows)-1], &p)
	}
}
