package bench

import (
	"os"
	"strconv"
	"strings"
)

// loadAvg returns the machine's one-minute load average, where /proc
// tells it, as a slice to append to a result's: empty where it does not.
func loadAvg() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	v, err := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	if err != nil {
		return nil
	}
	return []float64{v}
}
