package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/input"
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
	Template   string    `json:"template,omitempty"`
	ComputedAt string    `json:"computed_at"`
	Due        []dueJSON `json:"due"`
	computed   time.Time
}

// forecastQuery is what a forecast asks: its span, and the template it
// counts the coupons of ("" for everything due).
type forecastQuery struct {
	minutes  int
	template string
}

// parseForecastQuery reads ?minutes=<n>, 1 to 1440, and ?template=<id>.
func parseForecastQuery(q url.Values) (forecastQuery, error) {
	fq := forecastQuery{minutes: defaultForecastSpan, template: q.Get("template")}
	if q.Has("template") {
		if err := input.ID("template", fq.template); err != nil {
			return forecastQuery{}, err
		}
	}
	if !q.Has("minutes") {
		return fq, nil
	}
	n, err := strconv.Atoi(q.Get("minutes"))
	if err != nil || n < 1 || n > defaultForecastSpan {
		return forecastQuery{}, invalid("minutes", "must be an integer from 1 to 1440")
	}
	fq.minutes = n
	return fq, nil
}

// forecast serves GET /v1/console/forecast: what falls due in each minute
// from the current one on (coupon.expire, coupon.release, order.close),
// read from the store every instance shares; minutes with nothing due
// are left out; with ?template=, only that template's coupons (none if
// no template has that ID). One computation answers every request for
// forecastTTL; computed_at says when it was made.
func (s *server) forecast(w http.ResponseWriter, r *http.Request) {
	fq, err := parseForecastQuery(r.URL.Query())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	now := s.now()
	out, err := s.forecasts.get(now, fq, func() (forecastJSON, error) {
		p := storetype.ForecastParams{From: now.Truncate(forecastWidth), Width: forecastWidth, Buckets: fq.minutes, TemplateID: fq.template}
		counts, err := s.store.Forecast(r.Context(), p)
		if err != nil {
			return forecastJSON{}, err
		}
		out := forecastJSON{From: formatTime(p.From), Minutes: fq.minutes, Template: fq.template, ComputedAt: formatTime(now),
			Due: make([]dueJSON, 0, len(counts)), computed: now}
		for _, c := range counts {
			at := p.From.Add(time.Duration(c.Bucket) * forecastWidth)
			out.Due = append(out.Due, dueJSON{Kind: string(c.Kind), Minute: c.Bucket, At: formatTime(at), Count: c.N})
		}
		return out, nil
	})
	s.writeResult(w, r, err, func() any { return out })
}
