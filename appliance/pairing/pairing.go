// Package pairing is how a phone learns where the appliance is: a QR code
// carrying a link to a small standalone page, whose URL fragment holds the
// base URL and, when the owner asked for one, a freshly minted key. The
// fragment never reaches the server, so the key is in no request line and
// no log; the page reads it and removes it from the address bar.
package pairing

import (
	_ "embed"
	"fmt"
	"net/url"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// PagePath is where the standalone page is served.
const PagePath = "/pair"

//go:embed page.html
var page []byte

// Page is the standalone pairing page (no console assets needed).
func Page() []byte { return page }

// Link is the page's address on base with the settings in the fragment.
func Link(base, key string) string {
	v := url.Values{}
	v.Set("url", base)
	if key != "" {
		v.Set("key", key)
	}
	return strings.TrimRight(base, "/") + PagePath + "#" + v.Encode()
}

// QRPNG renders content as a PNG QR code, size pixels square, with medium
// error correction (a phone camera reads it off a laptop screen).
func QRPNG(content string, size int) ([]byte, error) {
	png, err := qrcode.Encode(content, qrcode.Medium, size)
	if err != nil {
		return nil, fmt.Errorf("qr code: %w", err)
	}
	return png, nil
}
