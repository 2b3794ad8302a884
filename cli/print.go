package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"text/tabwriter"
)

// printAll writes what items yields as it comes: with asJSON one JSON
// object a line, else a table of header and a row of each.
func printAll[T any](w io.Writer, asJSON bool, header string, items iter.Seq2[T, error], row func(T) string) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for it, err := range items {
			if err != nil {
				return err
			}
			if err := enc.Encode(it); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, header)
	for it, err := range items {
		if err != nil {
			tw.Flush()
			return err
		}
		fmt.Fprintln(tw, row(it))
	}
	return tw.Flush()
}
