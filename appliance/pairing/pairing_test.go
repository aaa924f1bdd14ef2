package pairing

import (
	"bytes"
	"image/png"
	"net/url"
	"strings"
	"testing"
)

func TestLink(t *testing.T) {
	for _, tc := range []struct{ base, key, want string }{
		{"https://192.168.1.9:8443", "", "https://192.168.1.9:8443/pair#url=https%3A%2F%2F192.168.1.9%3A8443"},
		{"http://closet.local:8080/", "hearth_dev_ab&c", "http://closet.local:8080/pair#key=hearth_dev_ab%26c&url=http%3A%2F%2Fcloset.local%3A8080%2F"},
	} {
		got := Link(tc.base, tc.key)
		if got != tc.want {
			t.Errorf("Link(%q, %q) = %q, want %q", tc.base, tc.key, got, tc.want)
		}
		u, _ := url.Parse(got)
		v, _ := url.ParseQuery(u.EscapedFragment())
		if v.Get("url") != tc.base || v.Get("key") != tc.key {
			t.Errorf("fragment %q does not round-trip", u.Fragment)
		}
	}
}

func TestQRPNG(t *testing.T) {
	b, err := QRPNG(Link("https://192.168.1.9:8443", "hearth_dev_0123456789abcdef0123456789abcdef"), 256)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil || img.Bounds().Dx() != 256 {
		t.Fatalf("not a 256px PNG: %v", err)
	}
	if _, err := QRPNG(strings.Repeat("x", 4000), 256); err == nil {
		t.Fatal("content past a QR code's capacity was accepted")
	}
}

func TestPageReadsTheFragmentOnly(t *testing.T) {
	p := string(Page())
	for _, want := range []string{"location.hash", "history.replaceState", "/lan/ca.crt", `name="referrer" content="no-referrer"`} {
		if !strings.Contains(p, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
