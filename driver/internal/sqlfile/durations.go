package sqlfile

import (
	"encoding/json"
	"time"
)

// DurationsJSON is ds as a JSON array of duration strings ("24h0m0s"), as
// a template's reminders are stored in a text column.
func DurationsJSON(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	b, _ := json.Marshal(s) // a []string always marshals
	return string(b)
}

// ParseDurations reads what DurationsJSON wrote; "[]" is none.
func ParseDurations(s string) ([]time.Duration, error) {
	var strs []string
	if err := json.Unmarshal([]byte(s), &strs); err != nil {
		return nil, err
	}
	var out []time.Duration
	for _, str := range strs {
		d, err := time.ParseDuration(str)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
