package appliance

import (
	"net/url"
	"strings"
	"testing"
)

func localClient(tb testing.TB) OAuthClient {
	tb.Helper()
	clients, err := ParseOAuthClients(DefaultOAuthClients)
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range clients {
		if c.ID == "hearth-local" {
			return c
		}
	}
	tb.Fatal("no hearth-local client")
	return OAuthClient{}
}

func TestLoopbackRedirects(t *testing.T) {
	t.Parallel()
	c := localClient(t)
	for uri, want := range map[string]bool{
		"http://127.0.0.1:53682/callback":      true,
		"http://localhost:8976/oauth/callback": true,
		"http://[::1]:9000/cb":                 true,
		"http://evil.example%23@127.0.0.1/":    false,
		"http://evil.example@127.0.0.1:1234/":  false,
		"http://127.0.0.1%2eevil.example/":     false,
		"http://127.0.0.1:80\\@evil.example/":  false,
		"http://evil.example/":                 false,
		"http://127.0.0.1:0/":                  false,
		"http://127.0.0.1:1/#frag":             false,
	} {
		if got := c.AllowsRedirect(uri); got != want {
			t.Errorf("%s: %v, want %v", uri, got, want)
		}
	}
}

// FuzzLoopbackRedirect: whatever the string, a redirect the hearth-local
// client accepts parses to a loopback host with no userinfo, and reads the
// same to a parser that unescapes before it splits.
func FuzzLoopbackRedirect(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1:53682/callback", "http://evil.example%23@127.0.0.1/", "http://[::1]/x", "http://localhost\\@evil/"} {
		f.Add(s)
	}
	c := localClient(f)
	f.Fuzz(func(t *testing.T, uri string) {
		if !c.AllowsRedirect(uri) {
			return
		}
		u, err := url.Parse(uri)
		if err != nil || u.User != nil || !isLoopback(u.Hostname()) {
			t.Fatalf("accepted %q: host %q user %v err %v", uri, u.Hostname(), u.User, err)
		}
		if un, err := url.PathUnescape(uri); err == nil {
			if v, err := url.Parse(un); err == nil && v.Hostname() != u.Hostname() && !strings.Contains(un, "#") {
				t.Fatalf("accepted %q: %q once unescaped", uri, v.Hostname())
			}
		}
		if strings.ContainsAny(uri[:len(u.Scheme)+3+len(u.Host)], "@\\%") {
			t.Fatalf("accepted %q: an authority with @, \\ or %%", uri)
		}
	})
}

// TestRegistrableRedirects: a client registering itself may name a loopback
// HTTP listener or an HTTPS page, never a plain-HTTP host elsewhere, and
// the loopback parser's refusals hold for it too.
func TestRegistrableRedirects(t *testing.T) {
	t.Parallel()
	for uri, want := range map[string]bool{
		"http://127.0.0.1:53682/callback":         true,
		"http://localhost:8976/oauth/callback":    true,
		"http://[::1]:9000/cb":                    true,
		"https://claude.ai/api/mcp/auth_callback": true,
		"https://example.com:8443/cb?x=1":         true,
		"http://192.168.1.20:8080/cb":             false,
		"http://evil.example/cb":                  false,
		"https://evil.example%23@good.example/":   false,
		"https://user@good.example/cb":            false,
		"https://good.example/cb#frag":            false,
		"https:///cb":                             false,
		"https:good.example/cb":                   false,
		"myapp://callback":                        false,
		"javascript:alert(1)":                     false,
		"":                                        false,
	} {
		if got := RegistrableRedirect(uri); got != want {
			t.Errorf("%q: %v, want %v", uri, got, want)
		}
	}
}

// FuzzRegistrableRedirect: whatever the string, a redirect a registering
// client may name is a loopback HTTP one or an HTTPS one with a host, and
// its authority carries no userinfo, backslash or escape.
func FuzzRegistrableRedirect(f *testing.F) {
	for _, s := range []string{"https://claude.ai/api/mcp/auth_callback", "http://127.0.0.1:53682/cb", "https://a@b/", "https:\\\\evil/", "http://10.0.0.1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		if !RegistrableRedirect(uri) {
			return
		}
		u, err := url.Parse(uri)
		if err != nil || u.User != nil || u.Hostname() == "" {
			t.Fatalf("accepted %q: host %q user %v err %v", uri, u.Hostname(), u.User, err)
		}
		if !(u.Scheme == "https" || u.Scheme == "http" && isLoopback(u.Hostname())) {
			t.Fatalf("accepted %q: %s on %q", uri, u.Scheme, u.Hostname())
		}
		if strings.ContainsAny(uri[:len(u.Scheme)+3+len(u.Host)], "@\\%") {
			t.Fatalf("accepted %q: an authority with @, \\ or %%", uri)
		}
	})
}
