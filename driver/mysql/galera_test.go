package mysql_test

import (
	"testing"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/driver/mysql/galeratest"
	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/store/storetest"
)

// TestStoreOnGalera runs the store's suite on a MariaDB Galera cluster
// through HAProxy, as lapse runs on one: every database of the suite is
// created, migrated and used on the one writer and replicated to the
// two other nodes.
func TestStoreOnGalera(t *testing.T) {
	base := galeratest.Start(t).URL()
	storetest.Run(t, func(t *testing.T) driver.Driver {
		return openDriver(t, mysqltest.FreshDBOn(t, base), mysql.Options{})
	})
}
