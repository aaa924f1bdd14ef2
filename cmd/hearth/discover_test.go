package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lanScript runs inside a fresh network namespace whose loopback carries
// multicast: one appliance advertises (mDNS on by default), a second runs
// with HEARTH_MDNS=false, and `hearth discover --json` must list exactly
// the first.
const lanScript = `set -e
ip link set lo up; ip link set lo multicast on; ip route add 224.0.0.0/4 dev lo
"$HEARTH" serve --data "$D/a" --addr 0.0.0.0:0 --log-format json 2>"$D/a.log" &
A=$!
HEARTH_MDNS=false "$HEARTH" serve --data "$D/b" --addr 0.0.0.0:0 --log-format json 2>"$D/b.log" &
B=$!
for i in $(seq 100); do grep -q '"advertising on the LAN"' "$D/a.log" 2>/dev/null && grep -q '"hearth serving"' "$D/b.log" 2>/dev/null && break; sleep 0.1; done
"$HEARTH" discover --wait 1500ms --json
kill -INT $A $B; wait $A $B
`

func TestDiscoverFindsServe(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
				t.Fatalf("%s is needed for the discovery test", tool)
			}
			t.Skipf("%s not installed", tool)
		}
	}
	// An unprivileged container or a chroot forbids the namespace: the
	// test is skipped there with the kernel's answer, and runs elsewhere.
	if out, err := exec.Command("unshare", "-rn", "true").CombinedOutput(); err != nil {
		t.Skipf("this kernel forbids an unprivileged network namespace here (%v: %s)", err, strings.TrimSpace(string(out)))
	}
	dir := t.TempDir()
	cmd := exec.Command("unshare", "-rn", "sh", "-c", lanScript)
	cmd.Env = append(os.Environ(), "HEARTH="+hearthBin, "D="+dir)
	out, err := cmd.Output()
	logs := func() string {
		a, _ := os.ReadFile(filepath.Join(dir, "a.log"))
		b, _ := os.ReadFile(filepath.Join(dir, "b.log"))
		return string(a) + string(b)
	}
	if err != nil {
		t.Fatalf("in the namespace: %v\n%s\n%s", err, out, logs())
	}
	var found []struct {
		Instance, URL, Version string
		TLS                    bool
		Port                   int
	}
	if err := json.Unmarshal(out, &found); err != nil {
		t.Fatalf("discover --json: %v\n%s", err, out)
	}
	if len(found) != 1 {
		t.Fatalf("want exactly the advertising appliance, got %+v\n%s", found, logs())
	}
	a := found[0]
	if !strings.HasPrefix(a.URL, "http://") || !strings.HasSuffix(a.URL, ":"+strconv.Itoa(a.Port)) || a.Version != "dev" || a.TLS ||
		!strings.HasPrefix(a.Instance, "hearth-") {
		t.Fatalf("discovered %+v", a)
	}
	if !strings.Contains(logs(), `"advertising on the LAN"`) {
		t.Fatalf("serve did not log its advertisement:\n%s", logs())
	}
}
