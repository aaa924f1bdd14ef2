package dnssd

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/mdns"
)

// Appliance is one answer to a discovery query.
type Appliance struct {
	Instance string
	Host     string
	Addrs    []net.IP
	Port     int
	URL      string
	Version  string
	TLS      bool
}

// Discover asks the LAN for _hearth._tcp for the given time and returns
// every appliance that answered, sorted by instance name.
func Discover(ctx context.Context, wait time.Duration, logger *slog.Logger) ([]Appliance, error) {
	entries := make(chan *mdns.ServiceEntry, 32)
	found := map[string]Appliance{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range entries {
			a := fromEntry(e)
			found[a.Instance] = a
		}
	}()
	err := mdns.QueryContext(ctx, &mdns.QueryParam{
		Service: Service, Domain: "local", Timeout: wait, Entries: entries, Logger: stdLogger(logger),
	})
	close(entries)
	<-done
	if err != nil {
		return nil, fmt.Errorf("mdns query: %w", err)
	}
	out := make([]Appliance, 0, len(found))
	for _, a := range found {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Instance < out[j].Instance })
	return out, nil
}

func fromEntry(e *mdns.ServiceEntry) Appliance {
	a := Appliance{
		Instance: strings.TrimSuffix(e.Name, "."+Service+".local."),
		Host:     strings.TrimSuffix(e.Host, "."),
		Port:     e.Port,
	}
	if e.AddrV4 != nil {
		a.Addrs = append(a.Addrs, e.AddrV4)
	}
	if e.AddrV6IPAddr != nil {
		a.Addrs = append(a.Addrs, e.AddrV6IPAddr.IP)
	}
	for _, f := range e.InfoFields {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "url":
			a.URL = v
		case "version":
			a.Version = v
		case "tls":
			a.TLS = v == "on"
		}
	}
	if a.URL == "" && len(a.Addrs) > 0 {
		scheme := "http"
		if a.TLS {
			scheme = "https"
		}
		a.URL = scheme + "://" + net.JoinHostPort(a.Addrs[0].String(), fmt.Sprint(a.Port))
	}
	return a
}
