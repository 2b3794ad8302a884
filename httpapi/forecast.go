package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// The console's storm forecast: a bucket a minute, 24 hours unless asked
// fewer.
const (
	forecastWidth       = time.Minute
	defaultForecastSpan = 24 * 60
)

// dueJSON is one bucket of the forecast with something due in it.
type dueJSON struct {
	Kind   string `json:"kind"`
	Minute int64  `json:"minute"`
	At     string `json:"at"`
	Count  int64  `json:"count"`
}

// forecastJSON answers GET /v1/console/forecast: computed at
// ComputedAt, which the cache keeps as computed too.
type forecastJSON struct {
	From       string    `json:"from"`
	Minutes    int       `json:"minutes"`
	ComputedAt string    `json:"computed_at"`
	Due        []dueJSON `json:"due"`
	computed   time.Time
}

// parseForecastQuery reads ?minutes=<n>, 1 to 1440.
func parseForecastQuery(q url.Values) (int, error) {
	if !q.Has("minutes") {
		return defaultForecastSpan, nil
	}
	n, err := strconv.Atoi(q.Get("minutes"))
	if err != nil || n < 1 || n > defaultForecastSpan {
		return 0, invalid("minutes", "must be an integer from 1 to 1440")
	}
	return n, nil
}

// forecast serves GET /v1/console/forecast: what falls due in each minute
// from the current one on (coupon.expire, coupon.release, order.close),
// read from the store every instance shares; minutes with nothing due
// are left out. One computation answers every request for forecastTTL;
// computed_at says when it was made.
func (s *server) forecast(w http.ResponseWriter, r *http.Request) {
	minutes, err := parseForecastQuery(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	now := s.now()
	out, err := s.forecasts.get(now, minutes, func() (forecastJSON, error) {
		p := storetype.ForecastParams{From: now.Truncate(forecastWidth), Width: forecastWidth, Buckets: minutes}
		counts, err := s.store.Forecast(r.Context(), p)
		if err != nil {
			return forecastJSON{}, err
		}
		out := forecastJSON{From: formatTime(p.From), Minutes: minutes, ComputedAt: formatTime(now),
			Due: make([]dueJSON, 0, len(counts)), computed: now}
		for _, c := range counts {
			at := p.From.Add(time.Duration(c.Bucket) * forecastWidth)
			out.Due = append(out.Due, dueJSON{Kind: string(c.Kind), Minute: c.Bucket, At: formatTime(at), Count: c.N})
		}
		return out, nil
	})
	s.writeResult(w, r, err, func() any { return out })
}
