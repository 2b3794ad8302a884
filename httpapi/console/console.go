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
)

//go:embed assets
var assets embed.FS

// files is the assets folder as the root of the page's files.
var files, _ = fs.Sub(assets, "assets")

// Index serves the page, index.html.
func Index(w http.ResponseWriter, r *http.Request) {
	http.ServeFileFS(w, r, files, "index.html")
}

// Assets serves the page's scripts and styles under /console/.
var Assets = http.StripPrefix("/console/", http.FileServerFS(files)).ServeHTTP
