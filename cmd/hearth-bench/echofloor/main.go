// Command echofloor is the floor hearth-bench measures `hearth serve`'s
// start against: the least a Go HTTP server on the same framework (echo)
// does before it answers GET /healthz with 200, and the memory it holds
// idle. It takes the same -addr form as hearth's --addr and nothing else.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/labstack/echo/v4"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on")
	flag.Parse()
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.GET("/healthz", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := http.Serve(ln, e); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
