package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/sysinit/lan/dnssd"
	"github.com/hearth-appliance/hearth/sysinit/lan/localca"
)

// lanParts are what serve runs for life on the LAN beside the API.
type lanParts struct {
	mdns         *dnssd.Advertiser
	wyoming      *dnssd.Advertiser  // _wyoming._tcp, with --wyoming
	ca           *localca.Authority // nil without a local CA
	loopbackOnly bool               // --plain-http=loopback
	httpsBase    string
}

// startLAN advertises the appliance over mDNS when configured. A box
// without a multicast-capable interface still serves: the failure is
// logged once and the API stays up.
func (m *Main) startLAN(baseURL string) {
	if !m.Config.MDNS {
		return
	}
	addr := m.Config.Addr
	if strings.HasPrefix(baseURL, "https://") && m.Config.TLSAddr != "" {
		addr = m.Config.TLSAddr
	}
	host, _, _ := net.SplitHostPort(addr)
	port := 0
	if u, err := url.Parse(baseURL); err == nil {
		port, _ = strconv.Atoi(u.Port())
		if port == 0 && u.Scheme == "https" {
			port = 443
		} else if port == 0 {
			port = 80
		}
	}
	adv, err := dnssd.Advertise(dnssd.Announcement{
		Port: port, IPs: dnssd.LANAddresses(host), URL: baseURL, Version: version,
		TLS: strings.HasPrefix(baseURL, "https://"),
	}, m.Logger)
	if err != nil {
		m.Logger.Warn("not advertising on the LAN", "err", err)
		return
	}
	m.lan.mdns = adv
	m.Logger.Info("advertising on the LAN", "service", dnssd.Service, "url", baseURL)
}

func (m *Main) stopLAN() {
	if m.lan.mdns != nil {
		m.lan.mdns.Close()
		m.lan.mdns = nil
	}
}

// runDiscover lists the appliances that answer on the LAN.
func runDiscover(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("discover", stderr)
	wait := fs.Duration("wait", 2*time.Second, "how long to listen for answers")
	asJSON := fs.Bool("json", false, "print a JSON array instead of one line per appliance")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("discover takes no arguments")
	}
	if *wait <= 0 || *wait > time.Minute {
		return usageErr("--wait must be between 0 and 1m")
	}
	found, err := dnssd.Discover(ctx, *wait, nil)
	if err != nil {
		return err
	}
	if *asJSON {
		type row struct {
			Instance string   `json:"instance"`
			URL      string   `json:"url"`
			Version  string   `json:"version"`
			TLS      bool     `json:"tls"`
			Host     string   `json:"host"`
			Addrs    []string `json:"addrs"`
			Port     int      `json:"port"`
		}
		rows := []row{}
		for _, a := range found {
			r := row{Instance: a.Instance, URL: a.URL, Version: a.Version, TLS: a.TLS, Host: a.Host, Port: a.Port, Addrs: []string{}}
			for _, ip := range a.Addrs {
				r.Addrs = append(r.Addrs, ip.String())
			}
			rows = append(rows, r)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	if len(found) == 0 {
		fmt.Fprintln(stderr, "no appliance answered within", *wait)
		return nil
	}
	for _, a := range found {
		tls := "off"
		if a.TLS {
			tls = "on"
		}
		fmt.Fprintf(stdout, "%s\t%s\tversion=%s\ttls=%s\n", a.Instance, a.URL, a.Version, tls)
	}
	return nil
}
