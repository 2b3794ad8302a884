package remind

import (
	"errors"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		u     User
		field string // "" for valid
	}{
		{User{Timezone: "Asia/Shanghai", Channels: []Channel{SMS, Push, InApp}}, ""},
		{User{ID: "", Timezone: "UTC"}, "user_id"},
		{User{Timezone: "UTC"}, ""},
		{User{Timezone: "America/Argentina/Buenos_Aires", Channels: []Channel{InApp}}, ""},
		{User{Timezone: ""}, "timezone"},
		{User{Timezone: "Local"}, "timezone"},
		{User{Timezone: "Mars/Olympus_Mons"}, "timezone"},
		{User{Timezone: "../../etc/passwd"}, "timezone"},
		{User{Timezone: "UTC", Channels: []Channel{"email"}}, "channels[0]"},
		{User{Timezone: "UTC", Channels: []Channel{Push, "SMS"}}, "channels[1]"},
		{User{Timezone: "UTC", Channels: []Channel{Push, SMS, Push}}, "channels[2]"},
	}
	for _, c := range cases {
		if c.field != "user_id" {
			c.u.ID = "u1"
		}
		err := c.u.Validate()
		var inv *coupon.InvalidError
		switch {
		case c.field == "" && err != nil:
			t.Fatalf("%+v: got %v, want valid", c.u, err)
		case c.field != "" && (!errors.As(err, &inv) || inv.Field != c.field):
			t.Fatalf("%+v: got %v, want an invalid %s", c.u, err, c.field)
		}
	}
}

func TestLocation(t *testing.T) {
	if got := (User{Timezone: "Asia/Shanghai"}).Location().String(); got != "Asia/Shanghai" {
		t.Fatalf("Location: got %s, want Asia/Shanghai", got)
	}
	if got := (User{Timezone: "Nowhere/Land"}).Location(); got != time.UTC {
		t.Fatalf("Location of an unknown zone: got %s, want UTC", got)
	}
	if got := (User{}).Location(); got != time.UTC {
		t.Fatalf("Location of no zone: got %s, want UTC", got)
	}
}

func TestParseQuietHours(t *testing.T) {
	cases := []struct {
		in   string
		want QuietHours
		ok   bool
	}{
		{"22:00-08:00", QuietHours{22 * time.Hour, 8 * time.Hour}, true},
		{"00:30-06:15", QuietHours{30 * time.Minute, 6*time.Hour + 15*time.Minute}, true},
		{"off", QuietHours{}, true},
		{"22:00-8:00", QuietHours{}, false},
		{"24:00-08:00", QuietHours{}, false},
		{"22:60-08:00", QuietHours{}, false},
		{"22:00", QuietHours{}, false},
		{"22:00-08:00x", QuietHours{}, false},
		{"", QuietHours{}, false},
	}
	for _, c := range cases {
		got, err := ParseQuietHours(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Fatalf("ParseQuietHours(%q): got %v (%v), want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
		if c.ok && got.String() != c.in {
			t.Fatalf("String of %q: got %q", c.in, got.String())
		}
	}
}
