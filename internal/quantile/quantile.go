// Package quantile takes nearest-rank quantiles of latencies, for the
// bench's reports and the engine's pace alike.
package quantile

import "time"

// Of returns the nearest-rank q-quantile of sorted, 0 if it is empty.
func Of(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
