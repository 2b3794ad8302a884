package outbox

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/lapsehq/lapse/internal/redisurl"
)

// SinkSpec is a --sink URL, parsed and checked. Open makes the sink.
//
//	webhook+http://host/path[?its own query]   webhook+https://…
//	redis://[user:pass@]host[:port][/db]?stream=name[&maxlen=n]   rediss://…
//	redis://[user:pass@]sentinel:26379[/db]?master_name=m&addr=sentinel2:26379&stream=name  (Sentinel, see internal/redisurl)
//	amqp://[user:pass@]host[:port][/vhost]?exchange=name   amqps://…
//	nats://[user:pass@]host[:port]?subject=prefix   tls://…
//
// The fragment holds lapse's own options, never sent to the target:
// name=<sink name> (default: the type; the name keys the sink's position,
// so keep it stable) and, for webhooks, batch=<events per request>
// (default 1, structured mode; more is batched mode) and
// timeout=<duration per request> (default 10s).
type SinkSpec struct {
	Name string
	// Type is webhook, redis, amqp or nats.
	Type string
	// URL is the target's own URL, lapse's options removed.
	URL string
	// Stream and MaxLen (0: uncapped) are a Redis sink's.
	Stream string
	MaxLen int64
	// Exchange is an AMQP sink's.
	Exchange string
	// Subject is a NATS sink's subject prefix.
	Subject string
	// Batch and Timeout (0: the default) are a webhook's.
	Batch   int
	Timeout time.Duration
}

var sinkName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// ParseSinks parses every --sink URL; the sinks' names must differ.
func ParseSinks(raws []string) ([]SinkSpec, error) {
	specs := make([]SinkSpec, 0, len(raws))
	names := map[string]bool{}
	for _, raw := range raws {
		s, err := ParseSink(raw)
		if err != nil {
			return nil, err
		}
		if names[s.Name] {
			return nil, fmt.Errorf("--sink: two sinks named %q: name each with #name=<name>", s.Name)
		}
		names[s.Name] = true
		specs = append(specs, s)
	}
	return specs, nil
}

// ParseSink parses one --sink URL. Its errors never repeat a password or
// a query value.
func ParseSink(raw string) (SinkSpec, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return SinkSpec{}, fmt.Errorf("--sink: not a URL: %w", err)
	}
	s, err := parseSink(u)
	if err != nil {
		return SinkSpec{}, fmt.Errorf("--sink %s: %w", redactURL(u), redactErr(redactor(u), err))
	}
	return s, nil
}

// Redacted is s.URL with its password and query values as xxxxx, for
// logs and messages.
func (s SinkSpec) Redacted() string {
	u, err := url.Parse(s.URL)
	if err != nil {
		return redactedMark
	}
	return redactURL(u)
}

func parseSink(u *url.URL) (SinkSpec, error) {
	var s SinkSpec
	switch u.Scheme {
	case "webhook+http", "webhook+https":
		s.Type = "webhook"
	case "redis", "rediss":
		s.Type = "redis"
	case "amqp", "amqps":
		s.Type = "amqp"
	case "nats", "tls":
		s.Type = "nats"
	default:
		return s, fmt.Errorf("unknown scheme %q: want webhook+http(s), redis(s), amqp(s) or nats/tls", u.Scheme)
	}
	if u.Host == "" || u.Opaque != "" {
		return s, errors.New("no host")
	}
	if err := s.parseFragment(u.EscapedFragment()); err != nil {
		return s, err
	}
	target := *u
	target.Fragment, target.RawFragment = "", ""
	if s.Type == "webhook" {
		target.Scheme = strings.TrimPrefix(u.Scheme, "webhook+")
		s.URL = target.String()
		return s, nil
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return s, fmt.Errorf("query: %w", err)
	}
	switch s.Type {
	case "redis":
		s.Stream, err = required(q, "stream")
		if err == nil && q.Has("maxlen") {
			s.MaxLen, err = strconv.ParseInt(take(q, "maxlen"), 10, 64)
			if err != nil || s.MaxLen < 1 {
				err = errors.New("maxlen: want a positive integer")
			}
		}
	case "amqp":
		s.Exchange, err = required(q, "exchange")
	case "nats":
		s.Subject, err = required(q, "subject")
		if err == nil && !validSubject(s.Subject) {
			err = fmt.Errorf("subject %q: want dot-separated tokens without spaces, * or >", s.Subject)
		}
		if err == nil && len(q) > 0 {
			err = fmt.Errorf("unknown option %q", firstKey(q))
		}
	}
	if err != nil {
		return s, err
	}
	target.RawQuery = q.Encode()
	s.URL = target.String()
	return s, s.checkTarget()
}

// checkTarget has the client library check the target URL.
func (s SinkSpec) checkTarget() error {
	switch s.Type {
	case "redis":
		_, err := redisurl.Parse(s.URL)
		return err
	case "amqp":
		_, err := amqp.ParseURI(s.URL)
		return err
	}
	return nil
}

// parseFragment reads lapse's options from the URL's fragment.
func (s *SinkSpec) parseFragment(frag string) error {
	s.Name = s.Type
	if frag == "" {
		return nil
	}
	opts, err := url.ParseQuery(frag)
	if err != nil {
		return fmt.Errorf("options after #: %w", err)
	}
	for key, vals := range opts {
		if len(vals) != 1 {
			return fmt.Errorf("option %q given %d times", key, len(vals))
		}
		v := vals[0]
		switch {
		case key == "name":
			if !sinkName.MatchString(v) {
				return fmt.Errorf("name %q: want 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", v)
			}
			s.Name = v
		case key == "batch" && s.Type == "webhook":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 10000 {
				return fmt.Errorf("batch %q: want 1 to 10000 events per request", v)
			}
			s.Batch = n
		case key == "timeout" && s.Type == "webhook":
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("timeout %q: want a positive duration such as 10s", v)
			}
			s.Timeout = d
		default:
			return fmt.Errorf("unknown option %q after # (a %s sink takes %s)", key, s.Type, fragmentOptions(s.Type))
		}
	}
	return nil
}

func fragmentOptions(typ string) string {
	if typ == "webhook" {
		return "name, batch and timeout"
	}
	return "name"
}

// required removes the one value of key from q and returns it.
func required(q url.Values, key string) (string, error) {
	if len(q[key]) != 1 || q.Get(key) == "" {
		return "", fmt.Errorf("%s: want exactly one, not empty (?%s=…)", key, key)
	}
	return take(q, key), nil
}

func take(q url.Values, key string) string {
	v := q.Get(key)
	q.Del(key)
	return v
}

func firstKey(q url.Values) string {
	for k := range q {
		return k
	}
	return ""
}

// validSubject reports whether s is a NATS subject without wildcards.
func validSubject(s string) bool {
	for tok := range strings.SplitSeq(s, ".") {
		if tok == "" || strings.ContainsAny(tok, " \t\r\n*>") {
			return false
		}
	}
	return true
}

// Open returns the sink s describes; secret signs a webhook's requests.
// It does not connect: each sink connects on its first delivery, so a
// target that is down at start delays only its own events. Its errors
// never show the secrets of its URL (see Redacted) nor secret.
func (s SinkSpec) Open(secret WebhookSecret, now func() time.Time) (Named, error) {
	n := Named{Name: s.Name, Type: s.Type}
	u, err := url.Parse(s.URL)
	if err != nil {
		return n, fmt.Errorf("sink %s: not a URL", s.Name)
	}
	r := redactor(u, secret.hidden()...)
	var sink Sink
	switch s.Type {
	case "webhook":
		sink = NewWebhook(WebhookConfig{URL: s.URL, Batch: s.Batch, Secret: secret, Timeout: s.Timeout, Now: now})
	case "redis":
		u, err := redisurl.Parse(s.URL)
		if err != nil {
			return n, fmt.Errorf("sink %s: %w", s.Name, redactErr(r, err))
		}
		sink = NewRedisStream(u.Client(), s.Stream, s.MaxLen)
	case "amqp":
		sink = NewAMQP(s.URL, s.Exchange)
	case "nats":
		sink = NewNATS(s.URL, s.Subject)
	default:
		return n, fmt.Errorf("sink %s: unknown type %q", s.Name, s.Type)
	}
	n.Sink = redacting{sink: sink, r: r}
	return n, nil
}
