package outbox_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox"
)

func TestParseSink(t *testing.T) {
	cases := []struct {
		raw  string
		want outbox.SinkSpec
	}{
		{"webhook+https://example.com/hooks/lapse?token=abc#name=billing&batch=100&timeout=3s",
			outbox.SinkSpec{Name: "billing", Type: "webhook", URL: "https://example.com/hooks/lapse?token=abc", Batch: 100, Timeout: 3 * time.Second}},
		{"webhook+http://127.0.0.1:9000/",
			outbox.SinkSpec{Name: "webhook", Type: "webhook", URL: "http://127.0.0.1:9000/"}},
		{"WEBHOOK+HTTP://127.0.0.1:9000/x",
			outbox.SinkSpec{Name: "webhook", Type: "webhook", URL: "http://127.0.0.1:9000/x"}},
		{"redis://127.0.0.1:6379/0?stream=lapse-events",
			outbox.SinkSpec{Name: "redis", Type: "redis", URL: "redis://127.0.0.1:6379/0", Stream: "lapse-events"}},
		{"rediss://u:p@redis.internal/2?stream=s&maxlen=100000&dial_timeout=3s#name=analytics",
			outbox.SinkSpec{Name: "analytics", Type: "redis", URL: "rediss://u:p@redis.internal/2?dial_timeout=3s", Stream: "s", MaxLen: 100000}},
		{"redis://s1:26379/0?master_name=m&addr=s2:26379&stream=s",
			outbox.SinkSpec{Name: "redis", Type: "redis", URL: "redis://s1:26379/0?addr=s2%3A26379&master_name=m", Stream: "s"}},
		{"amqp://guest:guest@127.0.0.1:5672/?exchange=lapse",
			outbox.SinkSpec{Name: "amqp", Type: "amqp", URL: "amqp://guest:guest@127.0.0.1:5672/", Exchange: "lapse"}},
		{"nats://127.0.0.1:4222?subject=lapse.events#name=js",
			outbox.SinkSpec{Name: "js", Type: "nats", URL: "nats://127.0.0.1:4222", Subject: "lapse.events"}},
	}
	for _, c := range cases {
		got, err := outbox.ParseSink(c.raw)
		if err != nil {
			t.Fatalf("ParseSink(%q): %v", c.raw, err)
		}
		if got != c.want {
			t.Fatalf("ParseSink(%q):\n got %+v\nwant %+v", c.raw, got, c.want)
		}
	}
}

func TestParseSinkRejects(t *testing.T) {
	cases := []struct{ raw, want string }{
		{"", "unknown scheme"},
		{"http://example.com/hook", `unknown scheme "http"`},
		{"webhook+ftp://example.com", "unknown scheme"},
		{"webhook+https:///path", "no host"},
		{"webhook+https://example.com#batch=0", "batch"},
		{"webhook+https://example.com#batch=x", "batch"},
		{"webhook+https://example.com#timeout=-1s", "timeout"},
		{"webhook+https://example.com#name=has space", "name"},
		{"webhook+https://example.com#name=a&name=b", "given 2 times"},
		{"webhook+https://example.com#colour=red", `unknown option "colour"`},
		{"redis://127.0.0.1:6379/0", "stream"},
		{"redis://127.0.0.1:6379/0?stream=", "stream"},
		{"redis://127.0.0.1:6379/0?stream=a&stream=b", "stream"},
		{"redis://127.0.0.1:6379/0?stream=s&maxlen=0", "maxlen"},
		{"redis://127.0.0.1:6379/0?stream=s&maxlen=ten", "maxlen"},
		{"redis://127.0.0.1:6379/0?stream=s#batch=5", `unknown option "batch"`},
		{"redis://127.0.0.1:6379/0?stream=s&colour=red", "unexpected option"},
		{"redis://127.0.0.1:6379/notadb?stream=s", "database"},
		{"redis://s1:26379/0?master_name=&stream=s", "master_name"},
		{"redis://s1:26379/0?master_name=m&replica_only=1&stream=s", "master only"},
		{"amqp://127.0.0.1:5672/", "exchange"},
		{"nats://127.0.0.1:4222", "subject"},
		{"nats://127.0.0.1:4222?subject=lapse.*", "subject"},
		{"nats://127.0.0.1:4222?subject=lapse..x", "subject"},
		{"nats://127.0.0.1:4222?subject=lapse&colour=red", `unknown option "colour"`},
		{"nats:lapse", "no host"},
		{"redis://%zz", "not a URL"},
	}
	for _, c := range cases {
		_, err := outbox.ParseSink(c.raw)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("ParseSink(%q): got %v, want an error about %q", c.raw, err, c.want)
		}
	}
	for _, raw := range []string{"amqp://u:s3cr3t@host/?nope=1", "redis://u:s3cr3t@host/x?stream=s", "redis://u:s3cr3t@%zz/?stream=s", "redis://s1/x?master_name=m&password=s3cr3t&stream=s"} {
		if _, err := outbox.ParseSink(raw); err == nil || strings.Contains(err.Error(), "s3cr3t") {
			t.Fatalf("ParseSink(%q): got %v, want an error without the password", raw, err)
		}
	}
}

func TestParseSinksNames(t *testing.T) {
	if _, err := outbox.ParseSinks([]string{"webhook+http://a/", "webhook+http://b/"}); err == nil || !strings.Contains(err.Error(), `two sinks named "webhook"`) {
		t.Fatalf("two unnamed webhooks: got %v, want a duplicate-name error", err)
	}
	specs, err := outbox.ParseSinks([]string{"webhook+http://a/#name=a", "webhook+http://b/#name=b", "redis://r/?stream=s"})
	if err != nil || len(specs) != 3 {
		t.Fatalf("named apart: got %d specs, %v; want 3", len(specs), err)
	}
}

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// FuzzParseSink: any input is parsed or refused without a panic; a parsed
// spec has a valid name, a known type with its required settings, a
// target URL free of lapse's options, and opens.
func FuzzParseSink(f *testing.F) {
	f.Fuzz(func(t *testing.T, raw string) {
		s, err := outbox.ParseSink(raw)
		if err != nil {
			return
		}
		if !validName.MatchString(s.Name) {
			t.Fatalf("ParseSink(%q): name %q", raw, s.Name)
		}
		ok := map[string]bool{
			"webhook": strings.HasPrefix(s.URL, "http://") || strings.HasPrefix(s.URL, "https://"),
			"redis":   s.Stream != "" && s.MaxLen >= 0,
			"amqp":    s.Exchange != "",
			"nats":    s.Subject != "" && !strings.ContainsAny(s.Subject, "*> "),
		}
		if !ok[s.Type] {
			t.Fatalf("ParseSink(%q): got %+v", raw, s)
		}
		if strings.Contains(s.URL, "#") || s.Type != "webhook" && strings.ContainsAny(s.URL, "?") && (strings.Contains(s.URL, "stream=") || strings.Contains(s.URL, "exchange=") || strings.Contains(s.URL, "subject=")) {
			t.Fatalf("ParseSink(%q): target %q keeps lapse's options", raw, s.URL)
		}
		n, err := s.Open(outbox.WebhookSecret{}, time.Now)
		if err != nil {
			t.Fatalf("Open(%+v): %v", s, err)
		}
		n.Sink.Close()
	})
}
