// Package console is lapse's web console: one page of plain HTML, CSS and
// JavaScript, embedded in the binary, that needs no build step and loads
// nothing from outside the server it comes from. It polls the API (the
// storm forecast, the live status, sinks, templates and the event feed)
// with a token the user pastes, kept in the tab's sessionStorage, or none
// when the server is in open mode.
package console

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

//go:embed assets
var assets embed.FS

// files is the assets folder as the root of the page's files.
var files, _ = fs.Sub(assets, "assets")

// Index serves the page, index.html.
func Index(w http.ResponseWriter, r *http.Request) {
	http.ServeFileFS(w, r, files, "index.html")
}

// Assets serves the page's scripts and styles under /console/, and
// hands any other path under it to missing.
func Assets(missing http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/console/")
		if fi, err := fs.Stat(files, name); err != nil || fi.IsDir() {
			missing(w, r)
			return
		}
		http.ServeFileFS(w, r, files, name)
	}
}
