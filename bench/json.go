package bench

import (
	"encoding/json"
	"io"
)

// writeJSON writes v as indented JSON: how every result writes itself.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
