package api

import (
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

// consoleCSP admits only the appliance's own files: no inline script or
// style, no other origin. Photos are data: URLs; the voice recorder's
// worklet is a file of ours.
const consoleCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// consoleHandler serves the web console's files; / sends the browser to
// /console. index.html is never cached
// (it names the current assets); other files may be cached for a day. Paths
// that are not files answer the contract's 404 shape, so unknown API paths
// such as /v1/memories stay 404 with {"detail": "Not Found"}.
func consoleHandler(files fs.FS) echo.HandlerFunc {
	fileServer := http.FileServer(http.FS(files))
	return func(c echo.Context) error {
		if m := c.Request().Method; m != http.MethodGet && m != http.MethodHead {
			return echo.ErrNotFound
		}
		p := strings.TrimPrefix(path.Clean("/"+c.Param("*")), "/")
		if p == "" {
			// The address a newcomer types is the console's: a status page
			// with a link was one click more (GET /healthz is the status).
			return c.Redirect(http.StatusFound, "/console")
		}
		fi, err := fs.Stat(files, p)
		if err == nil && fi.IsDir() {
			// A folder's page is its index.html (/console).
			p = path.Join(p, "index.html")
			fi, err = fs.Stat(files, p)
		}
		if err != nil || fi.IsDir() {
			return echo.ErrNotFound
		}
		h := c.Response().Header()
		h.Set("Content-Security-Policy", consoleCSP)
		if path.Base(p) == "index.html" {
			h.Set("Cache-Control", "no-cache")
		} else {
			h.Set("Cache-Control", "public, max-age=86400")
		}
		r := c.Request().Clone(c.Request().Context())
		r.URL.Path = "/" + p
		if path.Base(p) == "index.html" {
			// The file server answers a path ending in index.html with a
			// redirect to its folder; ask for the folder.
			r.URL.Path = strings.TrimSuffix("/"+path.Dir(p), "/.") + "/"
			r.URL.Path = strings.ReplaceAll(r.URL.Path, "//", "/")
		}
		fileServer.ServeHTTP(c.Response(), r)
		return nil
	}
}
