package sqlfile

import (
	"errors"
	"testing"
)

// columns is a row whose Scan hands out its values in order, as a
// database driver does, into *string and *int64 destinations.
type columns []any

func (c columns) Scan(dest ...any) error {
	if len(dest) != len(c) {
		return errors.New("column count")
	}
	for i, d := range dest {
		switch d := d.(type) {
		case *string:
			*d = c[i].(string)
		case *int64:
			*d = c[i].(int64)
		default:
			return errors.New("destination type")
		}
	}
	return nil
}

// TestScanFields: a row's columns fill the struct's fields in order,
// then the conversion runs; a failed scan is returned unconverted.
func TestScanFields(t *testing.T) {
	type row struct {
		ID      string
		Version int64
		Status  string
	}
	scan := ScanFields(func(r row) (string, error) { return r.ID + "/" + r.Status, nil })
	got, err := scan(columns{"c1", int64(3), "held"})
	if err != nil || got != "c1/held" {
		t.Fatalf("scan: %q, %v; want c1/held", got, err)
	}
	if _, err := scan(columns{"c1", int64(3)}); err == nil {
		t.Fatal("scan of a short row: no error")
	}
}
