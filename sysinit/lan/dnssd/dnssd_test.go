package dnssd

import (
	"context"
	"net"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"
)

// inNetns is set in the child this test runs inside a fresh network
// namespace: its own loopback, made multicast-capable, and no route out,
// so the test neither depends on the host's network nor disturbs it.
const inNetns = "HEARTH_DNSSD_IN_NETNS"

// runInNetns re-runs test name inside `unshare -rn` with loopback up and
// multicast routed over it. Under make test a missing unshare/ip fails; a
// kernel that forbids the namespace (an unprivileged container, a chroot)
// skips the test with its reason.
func runInNetns(t *testing.T, name string) {
	t.Helper()
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
				t.Fatalf("%s is needed for the mDNS test (util-linux, iproute2)", tool)
			}
			t.Skipf("%s not installed", tool)
		}
	}
	if out, err := exec.Command("unshare", "-rn", "true").CombinedOutput(); err != nil {
		t.Skipf("this kernel forbids an unprivileged network namespace here (%v: %s)", err, strings.TrimSpace(string(out)))
	}
	script := `ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && exec "$0" -test.run "^` + name + `$" -test.v`
	cmd := exec.Command("unshare", "-rn", "sh", "-c", script, os.Args[0])
	cmd.Env = append(os.Environ(), inNetns+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("%s in a network namespace: %v\n%s", name, err, out)
	}
	t.Logf("%s", out)
}

func TestAdvertiseAndDiscover(t *testing.T) {
	if os.Getenv(inNetns) == "" {
		runInNetns(t, t.Name())
		return
	}
	want := []Announcement{
		{Instance: "hearth-closet", Host: "closet", Port: 8443, IPs: []net.IP{net.IPv4(127, 0, 0, 1)},
			URL: "https://closet.local:8443", Version: "1.2.3", TLS: true},
		{Instance: "hearth-attic", Host: "attic", Port: 8080, IPs: []net.IP{net.IPv4(127, 0, 0, 1)},
			URL: "http://127.0.0.1:8080", Version: "1.2.3", TLS: false},
	}
	for _, a := range want {
		adv, err := Advertise(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer adv.Close()
	}
	got, err := Discover(context.Background(), 2*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("discovered %+v, want the two appliances", got)
	}
	for i, a := range []Announcement{want[1], want[0]} { // sorted by instance
		g := got[i]
		if g.Instance != a.Instance || g.Host != a.Host+".local" || g.Port != a.Port || g.URL != a.URL ||
			g.Version != a.Version || g.TLS != a.TLS || len(g.Addrs) == 0 || !g.Addrs[0].Equal(a.IPs[0]) {
			t.Errorf("appliance %d: got %+v, want %+v", i, g, a)
		}
	}

	// A closed advertiser no longer answers.
	adv, err := Advertise(Announcement{Instance: "hearth-gone", Port: 1, IPs: []net.IP{net.IPv4(127, 0, 0, 1)}, URL: "http://x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	adv.Close()
	got, _ = Discover(context.Background(), time.Second, nil)
	for _, g := range got {
		if g.Instance == "hearth-gone" {
			t.Fatalf("a closed advertiser still answered: %+v", g)
		}
	}
}

func TestTXTAndLabels(t *testing.T) {
	a := Announcement{URL: "http://10.0.0.2:8080", Version: "dev", TLS: false}
	if got := a.TXT(); !reflect.DeepEqual(got, []string{"url=http://10.0.0.2:8080", "version=dev", "tls=off"}) {
		t.Fatalf("TXT %q", got)
	}
	for in, want := range map[string]string{"Closet.lan": "closet", "my box": "my-box", "": "hearth", "pi_5": "pi-5"} {
		if got := dnsLabel(in); got != want {
			t.Errorf("dnsLabel(%q) = %q, want %q", in, got, want)
		}
	}
	if got := LANAddresses("192.168.1.9"); len(got) != 1 || got[0].String() != "192.168.1.9" {
		t.Errorf("LANAddresses(specific) = %v", got)
	}
	for _, ip := range LANAddresses("0.0.0.0") {
		if ip.IsLinkLocalUnicast() || ip.IsUnspecified() {
			t.Errorf("LANAddresses(0.0.0.0) offered %v", ip)
		}
	}
}
