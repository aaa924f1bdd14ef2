package api

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// bodyDeadline gives a request body a read deadline, so that a client that
// trickles a body in (or never sends the bytes it announced) cannot hold a
// connection and a handler for minutes. The deadline is lifted once the body
// has been read, so long-lived replies (the MCP event stream) are not cut.
func bodyDeadline(d time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if d <= 0 || r.Body == nil || r.Body == http.NoBody || (r.ContentLength == 0 && len(r.TransferEncoding) == 0) {
				return next(c)
			}
			rc := http.NewResponseController(c.Response().Writer)
			if err := rc.SetReadDeadline(time.Now().Add(d)); err != nil {
				return next(c) // not a real connection (tests with a recorder)
			}
			// A copy of the request carries the wrapped body: the server
			// must still see its own body type on the original, or it
			// cannot tell that an unread body is too big to drain, and a
			// reply that refuses a body (413) would wait for the body.
			r2 := r.WithContext(r.Context()) // a shallow copy
			r2.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
			c.SetRequest(r2)
			return next(c)
		}
	}
}

type deadlineBody struct {
	io.ReadCloser
	rc     *http.ResponseController
	lifted bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.lift()
	}
	return n, err
}

func (b *deadlineBody) Close() error {
	b.lift()
	return b.ReadCloser.Close()
}

func (b *deadlineBody) lift() {
	if !b.lifted {
		b.lifted = true
		b.rc.SetReadDeadline(time.Time{})
	}
}
