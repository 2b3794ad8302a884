package input

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestID(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"u1", true},
		{"用户-42", true},
		{strings.Repeat("x", MaxID), true},
		{"", false},
		{strings.Repeat("x", MaxID+1), false},
		{strings.Repeat("é", MaxID/2+1), false}, // 130 bytes, 65 characters
		{"a b", true},
		{" a", false},
		{"a ", false},
		{"a\u00a0", false}, // no-break space is whitespace too
		{"   ", false},
		{"z\x00", false},
		{"a\tb", false},
		{"a\u0085b", false}, // C1 control
		{"\xff", false},
	} {
		err := ID("user_id", tc.in)
		var inv *InvalidError
		switch {
		case tc.ok && err != nil:
			t.Errorf("ID(%q) = %v, want nil", tc.in, err)
		case !tc.ok && (!errors.As(err, &inv) || inv.Field != "user_id"):
			t.Errorf("ID(%q) = %v, want an InvalidError of user_id", tc.in, err)
		}
	}
}

func TestNameAndText(t *testing.T) {
	if err := Name("name", strings.Repeat("名", MaxName)); err != nil {
		t.Errorf("a name of %d characters: %v", MaxName, err)
	}
	for _, bad := range []string{"", "  ", strings.Repeat("n", MaxName+1), "a\nb", "\xfe"} {
		if err := Name("name", bad); err == nil {
			t.Errorf("Name(%q) = nil, want an error", bad)
		}
	}
	if err := Text("reason", "", MaxReason); err != nil {
		t.Errorf("an empty reason: %v", err)
	}
	if err := Text("reason", strings.Repeat("r", MaxReason+1), MaxReason); err == nil {
		t.Errorf("a reason of %d characters passed", MaxReason+1)
	}
}

func TestMoneyCountAndDuration(t *testing.T) {
	for v, ok := range map[int64]bool{0: true, MaxMoney: true, -1: false, MaxMoney + 1: false, 1<<63 - 1: false} {
		if err := Money("value", v); (err == nil) != ok {
			t.Errorf("Money(%d) = %v, want ok %v", v, err, ok)
		}
	}
	for v, ok := range map[int64]bool{0: true, MaxCount: true, -1: false, MaxCount + 1: false} {
		if err := Count("total", v); (err == nil) != ok {
			t.Errorf("Count(%d) = %v, want ok %v", v, err, ok)
		}
	}
	for d, ok := range map[time.Duration]bool{time.Millisecond: true, 72 * time.Hour: true, 0: false, -time.Second: false,
		999 * time.Microsecond: false, time.Nanosecond: false, 1500 * time.Microsecond: false} {
		if err := Duration("ttl", d); (err == nil) != ok {
			t.Errorf("Duration(%s) = %v, want ok %v", d, err, ok)
		}
	}
}
