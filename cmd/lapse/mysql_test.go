package main

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/store/mysql/mysqltest"
)

// TestServeMySQL runs lapse on a MySQL store: coupons claimed through the
// API expire on time, each exactly once.
func TestServeMySQL(t *testing.T) {
	s := start(t, mysqltest.FreshDB(t))
	_, cs := s.seed(t, 100, time.Now().Add(3*time.Second))
	waitExpired(t, s, len(cs))
	checkAllExpiredOnce(t, s, cs)
}
