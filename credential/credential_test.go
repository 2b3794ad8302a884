package credential

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseScopes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Scope
		err  bool
	}{
		{"wallet", []Scope{Wallet}, false},
		{"orders,wallet", []Scope{Wallet, Orders}, false},
		{"admin, events ,metrics,admin", []Scope{Admin, Events, Metrics}, false},
		{"wallet,root", nil, true},
		{"", nil, true},
		{"Wallet", nil, true},
	} {
		got, err := ParseScopes(tc.in)
		if tc.err {
			if !errors.Is(err, ErrUnknownScope) {
				t.Errorf("ParseScopes(%q): err %v, want ErrUnknownScope", tc.in, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseScopes(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	if got := Join(Scopes); got != "wallet,orders,admin,events,metrics" {
		t.Errorf("Join(Scopes) = %q", got)
	}
}

func TestNew(t *testing.T) {
	a, b := New(), New()
	if a == b || !strings.HasPrefix(a, Prefix) || len(a) != len(Prefix)+43 {
		t.Fatalf("New() = %q, %q", a, b)
	}
	if Hash(a) == Hash(b) || len(Hash(a)) != 64 || strings.Contains(Hash(a), a) {
		t.Fatalf("Hash(%q) = %q", a, Hash(a))
	}
}

func TestValidName(t *testing.T) {
	for name, ok := range map[string]bool{
		"checkout": true, "ops.team-2_a": true, "9": true,
		"": false, "-x": false, "a b": false, "ünï": false, strings.Repeat("a", 65): false,
	} {
		if err := ValidName(name); (err == nil) != ok {
			t.Errorf("ValidName(%q) = %v, want ok %v", name, err, ok)
		}
	}
}
