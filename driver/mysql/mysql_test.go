package mysql_test

import (
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/drivertest"
	"github.com/lapsehq/lapse/driver/internal/sqlfile/migratetest"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// The helpers every test here uses: a database of its own, and SQL on it.
var (
	freshDB = mysqltest.FreshDB
	rawDB   = mysqltest.Raw
)

// openDriver opens a driver on a database's URL, and open the store over
// one; each is closed when t ends.
var (
	openDriver = storetest.OpenFunc[*mysql.Driver, mysql.Options](mysql.Open).Driver
	open       = storetest.OpenFunc[*mysql.Driver, mysql.Options](mysql.Open).Store
)

// newDriver opens a driver on a fresh database, closed when t ends.
func newDriver(t *testing.T) driver.Driver { return openDriver(t, freshDB(t), mysql.Options{}) }

func TestStore(t *testing.T) { storetest.Run(t, newDriver) }

// TestDriver runs the driver contract's own tests.
func TestDriver(t *testing.T) { drivertest.Run(t, newDriver) }

// TestServer runs the store's checks of a backend whose writers run side
// by side.
func TestServer(t *testing.T) { storetest.RunServer(t, newDriver) }

func claim(t testing.TB, s store.Store, tplID, user string) coupon.Coupon {
	t.Helper()
	c, err := s.Claim(t.Context(), store.ClaimParams{TemplateID: tplID, UserID: user, Now: t0})
	if err != nil {
		t.Fatalf("Claim(%s): %v", user, err)
	}
	return c
}

func TestConfig(t *testing.T) {
	cases := []struct {
		url              string
		addr, user, pass string
		db               string
	}{
		{"mysql://root@127.0.0.1:3306/test", "127.0.0.1:3306", "root", "", "test"},
		{"mysql://app:s%40cret@db.internal/lapse", "db.internal:3306", "app", "s@cret", "lapse"},
		{"mysql://app:pw@[::1]:3307/lapse?timeout=5s", "[::1]:3307", "app", "pw", "lapse"},
	}
	for _, c := range cases {
		cfg, err := mysql.Config(c.url)
		if err != nil {
			t.Fatalf("Config(%s): %v", c.url, err)
		}
		if cfg.Addr != c.addr || cfg.User != c.user || cfg.Passwd != c.pass || cfg.DBName != c.db {
			t.Fatalf("Config(%s): got %s %s:%s %s, want %s %s:%s %s", c.url,
				cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName, c.addr, c.user, c.pass, c.db)
		}
		if !cfg.ParseTime || !cfg.InterpolateParams || !cfg.MultiStatements || cfg.Loc != time.UTC || cfg.Params["time_zone"] != "'+00:00'" {
			t.Fatalf("Config(%s): got %+v, want UTC times, interpolated parameters and multi-statement queries", c.url, cfg)
		}
	}
	if cfg, _ := mysql.Config("mysql://h/db?timeout=5s"); cfg == nil || cfg.Timeout != 5*time.Second {
		t.Fatalf("Config: the URL's driver parameters are not kept: %+v", cfg)
	}
	for _, bad := range []string{"", "mysql://h", "mysql://h/", "mysql://h/a/b", "postgres://h/db", "mysql:///db", "mysql://h/db?nosuchparam=%zz"} {
		if _, err := mysql.Config(bad); err == nil {
			t.Fatalf("Config(%q): got nil error, want one", bad)
		}
	}
}

// TestMigrateTogether: instances started together on one database migrate
// it once (one applies every migration, the others none), and a reopened
// database keeps its data.
func TestMigrateTogether(t *testing.T) {
	dbURL := freshDB(t)
	stores := make([]*mysql.Driver, 3)
	errs := make([]error, 3)
	changes := make([]storetype.SchemaChange, 3)
	var wg sync.WaitGroup
	for i := range stores {
		migrated := func(c storetype.SchemaChange) { changes[i] = c }
		wg.Go(func() { stores[i], errs[i] = mysql.Open(t.Context(), dbURL, mysql.Options{OnMigrated: migrated}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Open %d of 3 at once: %v", i, err)
		}
		defer stores[i].Close()
		if err := stores[i].Ready(t.Context()); err != nil {
			t.Fatalf("Ready %d: %v", i, err)
		}
	}
	first, second := store.New(stores[0], store.Options{}), store.New(stores[1], store.Options{})
	c := claim(t, first, storetest.Template(t, second, t0, nil).ID, "u1")
	stores[0].Close()

	s := open(t, dbURL, mysql.Options{})
	if got, err := s.Coupon(t.Context(), c.ID); err != nil || got.UserID != "u1" {
		t.Fatalf("reopened: Coupon: got %+v, %v; want u1's coupon", got, err)
	}
	migratetest.Together(t, changes)
}
