// Package dnssd announces a Hearth appliance on the LAN with multicast DNS
// service discovery (_hearth._tcp) and finds appliances that do; it wraps
// github.com/hashicorp/mdns.
//
// mDNS is link-local multicast (224.0.0.251 and ff02::fb, port 5353):
// routers do not forward it, so advertising never sends anything past the
// local network.
package dnssd

import (
	"fmt"
	"log"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/hashicorp/mdns"
)

// Service is the DNS-SD service type appliances register.
const Service = "_hearth._tcp"

// WyomingService is the service type Home Assistant browses for Wyoming
// voice services.
const WyomingService = "_wyoming._tcp"

// Announcement is what an appliance tells the LAN about itself.
type Announcement struct {
	// Service is the DNS-SD service type (default Service); the Wyoming
	// server announces itself as WyomingService.
	Service string
	// Instance names this appliance among others (default: hearth-HOST-PORT).
	Instance string
	// Host is the machine's name, without ".local." (default: os.Hostname).
	Host string
	// Port is the API's TCP port.
	Port int
	// IPs are the addresses clients can reach; never empty, since the
	// library would otherwise resolve the host name through DNS.
	IPs []net.IP
	// URL is the API base URL clients should use.
	URL     string
	Version string
	TLS     bool
}

// TXT renders the announcement's TXT record: url, version and tls=on|off.
func (a Announcement) TXT() []string {
	tls := "off"
	if a.TLS {
		tls = "on"
	}
	return []string{"url=" + a.URL, "version=" + a.Version, "tls=" + tls}
}

// Advertiser answers mDNS queries for one appliance until Close.
type Advertiser struct{ server *mdns.Server }

// Advertise starts answering queries for a. It fails when no multicast
// socket can be opened (no multicast-capable interface).
func Advertise(a Announcement, logger *slog.Logger) (*Advertiser, error) {
	if len(a.IPs) == 0 {
		return nil, fmt.Errorf("mdns: no address to advertise")
	}
	if a.Host == "" {
		h, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("mdns: host name: %w", err)
		}
		a.Host = h
	}
	a.Host = dnsLabel(a.Host)
	if a.Instance == "" {
		a.Instance = "hearth-" + a.Host + "-" + strconv.Itoa(a.Port)
	}
	if a.Service == "" {
		a.Service = Service
	}
	zone, err := mdns.NewMDNSService(a.Instance, a.Service, "local.", a.Host+".local.", a.Port, a.IPs, a.TXT())
	if err != nil {
		return nil, fmt.Errorf("mdns: %w", err)
	}
	srv, err := mdns.NewServer(&mdns.Config{Zone: zone, Logger: stdLogger(logger)})
	if err != nil {
		return nil, fmt.Errorf("mdns: %w", err)
	}
	return &Advertiser{server: srv}, nil
}

// Close stops answering.
func (a *Advertiser) Close() error { return a.server.Shutdown() }

// dnsLabel keeps a host name usable as one DNS label.
func dnsLabel(s string) string {
	s, _, _ = strings.Cut(s, ".")
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "hearth"
	}
	return b.String()
}

// stdLogger routes the library's log.Logger lines into slog at debug: its
// messages are chatty and never need the owner's attention.
func stdLogger(l *slog.Logger) *log.Logger {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return slog.NewLogLogger(l.With("component", "mdns").Handler(), slog.LevelDebug)
}

// LANAddresses lists the addresses an appliance bound to host can be
// reached at: host itself when it is a specific IP, else every up,
// multicast-capable interface's unicast addresses (loopback last, so a
// box without a LAN still answers queries from itself).
func LANAddresses(host string) []net.IP {
	if ip := net.ParseIP(host); ip != nil && !ip.IsUnspecified() {
		return []net.IP{ip}
	}
	if host == "localhost" {
		return []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	var lan, loop []net.IP
	ifaces, _ := net.Interfaces()
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok || ipn.IP.IsLinkLocalUnicast() {
				continue
			}
			if ipn.IP.IsLoopback() {
				loop = append(loop, ipn.IP)
			} else {
				lan = append(lan, ipn.IP)
			}
		}
	}
	return append(lan, loop...)
}
