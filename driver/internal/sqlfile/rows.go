package sqlfile

import "time"

// Rows is a result set as both database/sql (*sql.Rows) and pgx
// (pgx.Rows) hand it out.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanCounts reads rows of a text column and a count into a map.
func ScanCounts(rows Rows) (map[string]int64, error) {
	out := map[string]int64{}
	for rows.Next() {
		var (
			k string
			n int64
		)
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}

// Close closes rows: *sql.Rows, whose Close returns an error (that of
// the read, which Rows.Err already gave), or pgx.Rows, whose Close
// returns nothing.
func Close(rows Rows) {
	switch r := rows.(type) {
	case interface{ Close() error }:
		r.Close()
	case interface{ Close() }:
		r.Close()
	}
}

// Collect reads every row of rows with scan, and closes rows. err is the
// error of the query that returned rows: if it is not nil, Collect
// returns it and reads nothing. The slice is never nil, so that an empty
// result encodes as a JSON array.
func Collect[T any](rows Rows, err error, scan func(Scanner) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer Close(rows)
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Read reads rows with scan, and closes them. err is the error of the
// query that returned rows: if it is not nil, Read returns it and reads
// nothing.
func Read[T any](rows Rows, err error, scan func(Rows) (T, error)) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	defer Close(rows)
	return scan(rows)
}

// Each calls each with what scan reads from rows, a row at a time, until
// it returns false or the rows end; err is the error of the query that
// returned rows.
func Each[T any](rows Rows, err error, scan func(Scanner) (T, error), each func(T) bool) error {
	if err != nil {
		return err
	}
	defer Close(rows)
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		if !each(v) {
			break
		}
	}
	return rows.Err()
}

// Convert turns the rows a sqlc-generated query returned, with its error,
// into the store's values, stopping at the first error.
func Convert[R, T any](rows []R, err error, conv func(R) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	out := make([]T, len(rows))
	for i, r := range rows {
		if out[i], err = conv(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ConvertOne turns the row a sqlc-generated point read returned, with its
// error, into the store's value; interpret translates the error (no row:
// store.ErrNotFound).
func ConvertOne[R, T any](r R, err error, conv func(R) (T, error), interpret func(error) error) (T, error) {
	if err != nil {
		var zero T
		return zero, interpret(err)
	}
	return conv(r)
}

// ScanDurationIn returns the scan of a row of one integer column, a
// duration counted in unit.
func ScanDurationIn(unit time.Duration) func(Scanner) (time.Duration, error) {
	return func(row Scanner) (time.Duration, error) {
		var n int64
		err := row.Scan(&n)
		return time.Duration(n) * unit, err
	}
}
