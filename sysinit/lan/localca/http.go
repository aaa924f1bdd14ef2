package localca

import (
	"net"
	"net/http"
	"net/netip"
)

// CAPath is where the CA certificate is offered for download, over plain
// HTTP too: a phone must fetch it before it can trust HTTPS.
const CAPath = "/lan/ca.crt"

// CAHandler serves the CA certificate (PEM) for installing on a device.
func CAHandler(pem []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		// The MIME type phones recognise as "install this CA".
		w.Header().Set("Content-Type", "application/x-x509-ca-cert")
		w.Header().Set("Content-Disposition", `attachment; filename="hearth-ca.crt"`)
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(pem)
	})
}

// Front routes the CA download (when there is a local CA) and, when plain
// HTTP is for this machine only, refuses plain requests from elsewhere
// with a pointer to HTTPS. HSTS is deliberately never sent: LAN names and
// addresses change, and a pinned HTTPS-only name would lock clients out.
func Front(next http.Handler, caPEM []byte, loopbackOnly bool, httpsBase string) http.Handler {
	var ca http.Handler
	if caPEM != nil {
		ca = CAHandler(caPEM)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == CAPath && ca != nil {
			ca.ServeHTTP(w, r)
			return
		}
		if loopbackOnly && r.TLS == nil && !fromLoopback(r) && r.URL.Path != "/healthz" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			msg := `{"detail":"Plain HTTP is limited to this machine; use HTTPS`
			if httpsBase != "" {
				msg += " at " + httpsBase
			}
			w.Write([]byte(msg + `"}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
