package main

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/hearth-appliance/hearth/appliance/wyoming"
	"github.com/hearth-appliance/hearth/localstt"
	"github.com/hearth-appliance/hearth/sysinit/lan/dnssd"
)

// wyomingMaxConns caps Home Assistant's connections at once: it opens one
// per spoken command and one per describe, so a house needs a few.
const wyomingMaxConns = 16

// languageServer says whether a usable speech route serves a language
// (transcribe.Service).
type languageServer interface {
	wyoming.Transcriber
	Hears(language string) bool
}

// startWyoming serves speech to text over the Wyoming protocol when
// --wyoming is set, through the same batch service, limits and busy rules
// as /v1/stt/transcribe, and advertises it as _wyoming._tcp for Home
// Assistant's discovery. It has no authentication (the protocol has none):
// transcripts belong to no user and nothing is stored.
func (m *Main) startWyoming(ctx context.Context, batch languageServer) error {
	if m.Config.Wyoming == "" {
		return nil
	}
	ln, err := net.Listen("tcp", m.Config.Wyoming)
	if err != nil {
		return fmt.Errorf("wyoming: %w", err)
	}
	srv := &wyoming.Server{
		Transcriber: batch,
		Languages: func() []string {
			var out []string
			for _, l := range localstt.Languages() {
				if batch.Hears(l) {
					out = append(out, l)
				}
			}
			return out
		},
		Version:     version,
		MaxAudio:    min(m.Config.STTMaxDuration, wyoming.DefaultMaxAudio),
		MaxConns:    wyomingMaxConns,
		IdleTimeout: m.Config.WyomingIdleTimeout,
		Logger:      m.Logger.With("component", "wyoming"),
	}
	m.wyoming = ln
	m.goBackground(func() { srv.Serve(ctx, ln) })
	m.Logger.Info("wyoming serving", "addr", ln.Addr().String())
	if !m.Config.MDNS {
		return nil
	}
	host, _, _ := net.SplitHostPort(m.Config.Wyoming)
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	port, _ := strconv.Atoi(p)
	adv, err := dnssd.Advertise(dnssd.Announcement{
		Service: dnssd.WyomingService, Port: port, IPs: dnssd.LANAddresses(host),
		URL: "tcp://" + ln.Addr().String(), Version: version,
	}, m.Logger)
	if err != nil {
		m.Logger.Warn("not advertising Wyoming on the LAN", "err", err)
		return nil
	}
	m.lan.wyoming = adv
	m.Logger.Info("advertising on the LAN", "service", dnssd.WyomingService, "port", port)
	return nil
}

// stopWyoming stops accepting Wyoming clients and advertising them; the
// background context's end closes the connections.
func (m *Main) stopWyoming() {
	if m.lan.wyoming != nil {
		m.lan.wyoming.Close()
		m.lan.wyoming = nil
	}
	if m.wyoming != nil {
		m.wyoming.Close()
		m.wyoming = nil
	}
}
