package api

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
)

// PublicURL answers "what is the appliance's own address?" for the places
// that put it in a reply a client follows: OAuth metadata, the MCP 401
// challenge, the MCP info page. A request's Host header is the client's
// word, so it is used only when it names this machine; forwarded headers
// only when the peer is a configured trusted proxy; and a configured
// --public-url beats both.
type PublicURL struct {
	fixed    string         // from configuration, without a trailing slash
	fallback string         // http://<listen address, made reachable>
	trusted  []netip.Prefix // proxies whose X-Forwarded-* headers count
	ownIPs   map[netip.Addr]bool
	ownNames map[string]bool
}

// NewPublicURL builds the answer from --public-url (may be empty), the
// bound listen address and --trusted-proxies (comma-separated IPs or
// CIDRs).
func NewPublicURL(public, listenAddr, trustedProxies string) (*PublicURL, error) {
	p := &PublicURL{ownIPs: map[netip.Addr]bool{}, ownNames: map[string]bool{"localhost": true}}
	if public != "" {
		u, err := url.Parse(public)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("public url %q: want http(s)://host[:port]", public)
		}
		p.fixed = strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/")
	}
	for _, raw := range strings.Split(trustedProxies, ",") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		pfx, err := netip.ParsePrefix(raw)
		if err != nil {
			addr, aerr := netip.ParseAddr(raw)
			if aerr != nil {
				return nil, fmt.Errorf("trusted proxy %q: not an IP or CIDR", raw)
			}
			pfx = netip.PrefixFrom(addr, addr.BitLen())
		}
		p.trusted = append(p.trusted, pfx)
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(n.IP); ok {
					p.ownIPs[ip.Unmap()] = true
				}
			}
		}
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		h = strings.ToLower(h)
		p.ownNames[h] = true
		p.ownNames[h+".local"] = true // mDNS
	}
	p.fallback = "http://" + reachable(listenAddr, p.ownIPs)
	return p, nil
}

// reachable turns a listen address into one a client can use: an
// unspecified host (0.0.0.0, ::) becomes one of this machine's LAN
// addresses, or loopback when it has none.
func reachable(listen string, own map[netip.Addr]bool) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	ip, err := netip.ParseAddr(host)
	if host != "" && (err != nil || !ip.IsUnspecified()) {
		return listen
	}
	best := netip.MustParseAddr("127.0.0.1")
	for a := range own {
		if a.Is4() && !a.IsLoopback() && !a.IsLinkLocalUnicast() && (best.IsLoopback() || a.Less(best)) {
			best = a
		}
	}
	return net.JoinHostPort(best.String(), port)
}

// Default is the appliance's address when no request names it: the
// configured public URL, else the listen address made reachable.
func (p *PublicURL) Default() string {
	if p.fixed != "" {
		return p.fixed
	}
	return p.fallback
}

// Base is the appliance's base URL for a reply to r, without a trailing
// slash.
func (p *PublicURL) Base(r *http.Request) string {
	if p.fixed != "" {
		return p.fixed
	}
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if p.fromTrustedProxy(r) {
		if h := r.Header.Get("X-Forwarded-Host"); h != "" {
			host = strings.TrimSpace(strings.Split(h, ",")[0])
		}
		if r.Header.Get("X-Forwarded-Proto") == "https" {
			scheme = "https"
		}
	}
	if p.isOwnHost(host) {
		return scheme + "://" + host
	}
	return p.fallback
}

// SameOrigin reports whether origin (a browser's Origin header) is the
// appliance itself: the host the browser addressed when that is one of
// this machine's addresses or names, or the public URL.
func (p *PublicURL) SameOrigin(r *http.Request, origin string) bool {
	if origin == "" {
		return false
	}
	if p.fixed != "" && strings.EqualFold(origin, originOf(p.fixed)) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	// The host the browser addressed counts only when it names this
	// machine: with a rebound DNS name, Host and Origin are both the
	// attacker's.
	if strings.EqualFold(u.Host, r.Host) && p.isOwnHost(r.Host) {
		return true
	}
	// Behind a trusted reverse proxy the browser addressed the proxy's host.
	if p.fromTrustedProxy(r) {
		if h := r.Header.Get("X-Forwarded-Host"); h != "" {
			return strings.EqualFold(u.Host, strings.TrimSpace(strings.Split(h, ",")[0]))
		}
	}
	return false
}

func originOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	return u.Scheme + "://" + u.Host
}

func (p *PublicURL) fromTrustedProxy(r *http.Request) bool {
	if len(p.trusted) == 0 {
		return false
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	return p.trusts(ap.Addr())
}

// isOwnHost reports whether a Host value names this machine: one of its
// addresses, localhost, or its host name (plain or .local).
func (p *PublicURL) isOwnHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(strings.ToLower(host), "[]")
	if host == "" {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		ip = ip.Unmap()
		return ip.IsLoopback() || p.ownIPs[ip]
	}
	return p.ownNames[host]
}

// ClientIP is the address a request came from, for rate limits and logs:
// the socket's peer, unless that peer is a trusted proxy, in which case the
// nearest untrusted hop of X-Forwarded-For (or X-Real-IP). Headers from
// anyone else are the client's word and would let it pick a fresh address
// for every guess.
func (p *PublicURL) ClientIP(r *http.Request) string {
	peer := r.RemoteAddr
	if host, _, err := net.SplitHostPort(peer); err == nil {
		peer = host
	}
	if !p.fromTrustedProxy(r) {
		return peer
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		ip, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return peer // a garbled chain: believe only the socket
		}
		if !p.trusts(ip) {
			return ip.Unmap().String()
		}
	}
	if ip, err := netip.ParseAddr(strings.TrimSpace(r.Header.Get("X-Real-IP"))); err == nil {
		return ip.Unmap().String()
	}
	return peer
}

// TrustsProxy reports whether ip is one of --trusted-proxies.
func (p *PublicURL) TrustsProxy(ip netip.Addr) bool { return p.trusts(ip) }

func (p *PublicURL) trusts(ip netip.Addr) bool {
	for _, pfx := range p.trusted {
		if pfx.Contains(ip.Unmap()) {
			return true
		}
	}
	return false
}
