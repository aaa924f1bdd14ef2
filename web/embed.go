// Package web holds the web console's files, embedded in the binary. It
// imports nothing of the project; appliance/api serves FS().
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

//go:embed templates
var templates embed.FS

// FS returns the console's file tree, rooted at dist/.
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded at build time; a failure here is a build bug
	}
	return sub
}

// Templates returns the server-rendered pages (the OAuth consent page),
// rooted at templates/.
func Templates() fs.FS {
	sub, err := fs.Sub(templates, "templates")
	if err != nil {
		panic(err) // embedded at build time; a failure here is a build bug
	}
	return sub
}
