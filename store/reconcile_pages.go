package store

import (
	"context"

	"github.com/lapsehq/lapse/driver"
)

// eachRow calls each with every row read returns, a page of p.Limit at a
// time from p on; after a full page, next moves p past the page's last
// row.
func eachRow[T any](ctx context.Context, p driver.PageParams, read func(context.Context, driver.PageParams) ([]T, error), next func(last T, p *driver.PageParams), each func(T) error) error {
	for {
		rows, err := read(ctx, p)
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
