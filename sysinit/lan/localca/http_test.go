package localca

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestFront(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("api")) })
	pem := []byte("-----BEGIN CERTIFICATE-----\n")
	cases := []struct {
		name         string
		loopbackOnly bool
		ca           []byte
		remote, path string
		tls          bool
		code         int
		body         string
	}{
		{"lan plain allowed by default", false, pem, "192.168.1.20:5000", "/v1/x", false, 200, "api"},
		{"lan plain refused when loopback only", true, pem, "192.168.1.20:5000", "/v1/x", false, 403, "use HTTPS at https://box:8443"},
		{"loopback plain always allowed", true, pem, "127.0.0.1:5000", "/v1/x", false, 200, "api"},
		{"ipv6 loopback", true, pem, "[::1]:5000", "/v1/x", false, 200, "api"},
		{"lan over https allowed", true, pem, "192.168.1.20:5000", "/v1/x", true, 200, "api"},
		{"CA download stays open on plain http", true, pem, "192.168.1.20:5000", CAPath, false, 200, "BEGIN CERTIFICATE"},
		{"health stays open", true, pem, "192.168.1.20:5000", "/healthz", false, 200, "api"},
		{"no CA: the path is the API's", false, nil, "192.168.1.20:5000", CAPath, false, 200, "api"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", tc.path, nil)
			r.RemoteAddr = tc.remote
			if tc.tls {
				r.TLS = &tls.ConnectionState{}
			}
			w := httptest.NewRecorder()
			Front(api, tc.ca, tc.loopbackOnly, "https://box:8443").ServeHTTP(w, r)
			if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.body) {
				t.Fatalf("%d %q, want %d %q", w.Code, w.Body.String(), tc.code, tc.body)
			}
			if w.Header().Get("Strict-Transport-Security") != "" {
				t.Fatal("HSTS sent")
			}
		})
	}
}
