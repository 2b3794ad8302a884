package storetest

import "testing"

// RunServer runs, beside Run, the checks of a driver whose writers run
// side by side on pools of their own (PostgreSQL, MySQL), each as a
// subtest: due rows another transaction holds are skipped, and users'
// reads and writes never wait for a connection behind the engine, nor
// reads behind writes. newDriver is as for Run.
func RunServer(t *testing.T, newDriver NewDriver) {
	for _, c := range []struct {
		name string
		run  func(*testing.T, NewDriver)
	}{
		{"SkipLocked", runSkipLocked},
		{"ReadsBesideEngine", RunReadsBesideEngine},
		{"WritesBesideEngine", runWritesBesideEngine},
		{"ReadsBesideWrites", RunReadsBesideWrites},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, newDriver) })
	}
}
