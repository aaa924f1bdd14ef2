package dnssd

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/mdns"
)

// TestAdvertiseWyoming: an announcement with WyomingService answers
// Home Assistant's browse for _wyoming._tcp with its port, and is not
// mistaken for an appliance by Discover.
func TestAdvertiseWyoming(t *testing.T) {
	if os.Getenv(inNetns) == "" {
		runInNetns(t, t.Name())
		return
	}
	adv, err := Advertise(Announcement{Service: WyomingService, Host: "closet", Port: 10300,
		IPs: []net.IP{net.IPv4(127, 0, 0, 1)}, URL: "tcp://127.0.0.1:10300", Version: "1.2.3"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer adv.Close()
	entries := make(chan *mdns.ServiceEntry, 8)
	err = mdns.QueryContext(context.Background(), &mdns.QueryParam{
		Service: WyomingService, Domain: "local", Timeout: 2 * time.Second, Entries: entries, Logger: stdLogger(nil),
	})
	close(entries)
	if err != nil {
		t.Fatal(err)
	}
	var found []*mdns.ServiceEntry
	for e := range entries {
		if strings.HasSuffix(e.Name, "."+WyomingService+".local.") {
			found = append(found, e)
		}
	}
	if len(found) != 1 || found[0].Port != 10300 || !found[0].AddrV4.Equal(net.IPv4(127, 0, 0, 1)) ||
		found[0].Name != "hearth-closet-10300._wyoming._tcp.local." {
		t.Fatalf("browsing _wyoming._tcp found %+v", found)
	}
	hearths, err := Discover(context.Background(), time.Second, nil)
	if err != nil || len(hearths) != 0 {
		t.Fatalf("Discover listed the Wyoming service: %+v %v", hearths, err)
	}
}
