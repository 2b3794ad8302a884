package redisurl_test

import (
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/lapsehq/lapse/internal/redisurl"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestParse: each form gives its target, and a bad URL a clear error
// that keeps its passwords hidden.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		raw, want string // want: the target, or a part of the error
		ok        bool
	}{
		{"redis://127.0.0.1:6379/0", "127.0.0.1:6379", true},
		{"redis://u:secret1@h", "h:6379", true},
		{"rediss://h:6380/2?dial_timeout=3s", "h:6380", true},
		{"redis://:pw@s1:26379/0?master_name=m&addr=s2:26379&addr=s3:26379", "master m via sentinels s1:26379,s2:26379,s3:26379", true},
		{"redis://s1/1?master_name=m&password=secret2&username=lapse", "master m via sentinels s1:6379", true},
		{"redis://s1?master_name=", "master_name: empty", false},
		{"redis://s1?master_name=m&replica_only=true", "the master only", false},
		{"redis://s1?master_name=m&route_randomly=1", "the master only", false},
		{"redis://s1?master_name=m&route_by_latency=true", "the master only", false},
		{"redis://s1?master_name=m&addr=s2", "addr", false},
		{"redis://s1?master_name=m&stream=x", "unexpected option: stream", false},
		{"redis://h?addr=s2:1", "unexpected option: addr", false},
		{"redis://h?pool_size=3000000000", "at most 10000", false},
		{"redis://h?master_name=m&min_idle_conns=20000", "at most 10000", false},
		{"http://h", "invalid URL scheme", false},
		{"redis+sentinel://h?master_name=m", "invalid URL scheme", false},
		{"redis://u:secret3@h/%zz", "not a URL", false},
		{"redis://h/0/1", "invalid URL path", false},
	} {
		u, err := redisurl.Parse(c.raw)
		switch {
		case c.ok && err != nil:
			t.Errorf("Parse(%q): %v", c.raw, err)
		case c.ok && u.String() != c.want:
			t.Errorf("Parse(%q): target %q, want %q", c.raw, u.String(), c.want)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("Parse(%q): error %v, want one saying %q", c.raw, err, c.want)
		case !c.ok && strings.Contains(err.Error(), "secret"):
			t.Errorf("Parse(%q): error %q shows a password", c.raw, err)
		}
	}
}

// TestRedacted: both passwords are hidden, the rest is kept.
func TestRedacted(t *testing.T) {
	got := redisurl.Redacted("redis://sentinel:secret1@s1:26379/0?addr=s2:26379&master_name=m&password=secret2")
	want := "redis://sentinel:xxxxx@s1:26379/0?addr=s2%3A26379&master_name=m&password=xxxxx"
	if got != want {
		t.Fatalf("Redacted: got %q, want %q", got, want)
	}
}

// FuzzParse: any input is parsed or refused without a panic, and what is
// parsed makes a client (go-redis panics on some options a URL can
// carry) whose target is named.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"redis://127.0.0.1:6379/0", "rediss://u:p@h:1/2?dial_timeout=3&pool_size=5", "unix:///tmp/r.sock?db=1",
		"redis://:pw@s1:26379/0?master_name=m&addr=s2:26379&addr=s3:26379&password=x",
		"redis://s1?master_name=m&route_randomly=true", "redis://h?pool_size=2147483648",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := redisurl.Parse(raw)
		if err != nil {
			return
		}
		if u.String() == "" {
			t.Fatalf("Parse(%q): no target", raw)
		}
		if err := u.Client().Close(); err != nil {
			t.Fatalf("Parse(%q): close: %v", raw, err)
		}
		redisurl.Redacted(raw)
	})
}
