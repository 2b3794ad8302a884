package sqlfile

import "reflect"

// ScanFields returns the scan of a row of a named query that reads the
// same columns as a sqlc-generated one: the columns go to the fields of
// R, sqlc's row struct, in the order sqlc declares them (that of the
// query's columns), and conv turns R into the driver's value.
func ScanFields[R, T any](conv func(R) (T, error)) func(Scanner) (T, error) {
	return func(row Scanner) (T, error) {
		var r R
		if err := row.Scan(fieldsOf(&r)...); err != nil {
			var zero T
			return zero, err
		}
		return conv(r)
	}
}

// fieldsOf is the addresses of the fields of the struct p points to, in
// order.
func fieldsOf(p any) []any {
	v := reflect.ValueOf(p).Elem()
	out := make([]any, v.NumField())
	for i := range out {
		out[i] = v.Field(i).Addr().Interface()
	}
	return out
}
