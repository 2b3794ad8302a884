package client

import "runtime/debug"

// modulePath is the client module's path.
const modulePath = "github.com/lapsehq/lapse/client"

// userAgent is the User-Agent of every request: lapse-go/<version>, the
// version of the client module the program was built with ("devel" for
// one built from a checkout, as the server is).
var userAgent = "lapse-go/" + moduleVersion()

// moduleVersion is the version of the client module in the running
// program's build information.
func moduleVersion() string {
	info, _ := debug.ReadBuildInfo()
	return versionIn(info)
}

// versionIn is the version of the client module that info (nil: none)
// names, as a dependency or as the main module, not replaced.
func versionIn(info *debug.BuildInfo) string {
	if info == nil {
		return "devel"
	}
	for _, m := range append([]*debug.Module{&info.Main}, info.Deps...) {
		if m.Path == modulePath && m.Replace == nil && m.Version != "" && m.Version != "(devel)" {
			return m.Version
		}
	}
	return "devel"
}
