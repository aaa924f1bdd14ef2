package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConsoleDevices: the Devices page's API on a real server. A signed-in
// member pairs a phone: the QR code, read back with a real QR reader,
// opens the pairing page with the address and a fresh key, and the key
// works; the device is listed with its last activity beside the member's
// Firebase bindings (not another member's), and revoking or unbinding is
// the member's alone and takes effect at once.
func TestConsoleDevices(t *testing.T) {
	t.Parallel()
	zbar, err := exec.LookPath("zbarimg")
	if err != nil {
		if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
			t.Fatal("zbarimg (zbar-tools) is needed to read the pairing QR code back")
		}
		t.Skip("zbarimg not installed")
	}
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_MDNS=false")
	ada, uid := claimConsole(t, srv)

	if st, _, _ := ada.do("POST", "/console/api/devices/pair", `{"mint_key":true}`); st != 403 {
		t.Fatalf("pairing without the CSRF token: %d, want 403", st)
	}
	st, v := ada.change("POST", "/console/api/devices/pair", `{"mint_key":true,"name":"Ada's phone"}`)
	if st != 200 {
		t.Fatalf("pairing: %d %v", st, v)
	}
	key, keyID, pairURL := v["key"].(string), v["key_id"].(string), v["pair_url"].(string)
	// The console is opened on loopback here: a phone cannot use that
	// address, and the reply says so.
	if !strings.HasPrefix(key, "hearth_dev_") || v["base_url"] != srv.base || !strings.Contains(v["warning"].(string), "--public-url") {
		t.Fatalf("pairing reply %v", v)
	}
	png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(v["qr_png"].(string), "data:image/png;base64,"))
	if err != nil {
		t.Fatalf("qr_png: %v", err)
	}
	img := filepath.Join(t.TempDir(), "qr.png")
	os.WriteFile(img, png, 0o600)
	out, err := exec.Command(zbar, "--raw", "-q", img).Output()
	if err != nil {
		t.Fatalf("zbarimg could not read the QR code: %v", err)
	}
	if read := strings.TrimSpace(string(out)); read != pairURL || !strings.HasPrefix(read, srv.base+"/pair#") || !strings.Contains(read, "key="+key) {
		t.Fatalf("QR code says %q, pair_url %q", read, pairURL)
	}
	if st, body := srv.call(t, "GET", "/v1/dev/user/conversations", key, ""); st != 200 {
		t.Fatalf("the paired key on the API: %d %s", st, body)
	}

	// Another member, with a device and an app account of their own.
	bo := mustCLI(t, "users", "add", "--data", data, "--name", "Bo")
	st2, body := srv.call(t, "POST", "/v1/pairing", mustCLI(t, "token", "--data", data, "--user", bo), `{"mint_key":true}`)
	var boPair struct {
		KeyID string `json:"key_id"`
	}
	if json.Unmarshal([]byte(body), &boPair); st2 != 200 || boPair.KeyID == "" {
		t.Fatalf("Bo pairs: %d %s", st2, body)
	}
	mustCLI(t, "users", "bind-firebase", "--data", data, "--user", uid, "--firebase-uid", "fb-ada")
	mustCLI(t, "users", "bind-firebase", "--data", data, "--user", bo, "--firebase-uid", "fb-bo")

	type device struct {
		ID         string  `json:"id"`
		Name       string  `json:"name"`
		LastUsedAt *string `json:"last_used_at"`
	}
	type devices struct {
		Keys     []device `json:"keys"`
		Firebase []struct {
			UID string `json:"firebase_uid"`
		} `json:"firebase"`
	}
	list := func() devices {
		t.Helper()
		resp, b := ada.get("/console/api/devices")
		var d devices
		if resp.StatusCode != 200 || json.Unmarshal(b, &d) != nil {
			t.Fatalf("devices: %d %s", resp.StatusCode, b)
		}
		return d
	}
	// The key's use is recorded in the background: wait for it to show.
	var d devices
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if d = list(); len(d.Keys) == 1 && d.Keys[0].LastUsedAt != nil || time.Now().After(deadline) {
			break
		}
	}
	if len(d.Keys) != 1 || d.Keys[0].ID != keyID || d.Keys[0].Name != "Ada's phone" || d.Keys[0].LastUsedAt == nil {
		t.Fatalf("Ada's devices: %+v", d.Keys)
	}
	if len(d.Firebase) != 1 || d.Firebase[0].UID != "fb-ada" {
		t.Fatalf("Ada's app accounts: %+v", d.Firebase)
	}

	// Bo's device and account are not Ada's to revoke.
	if st, v := ada.change("DELETE", "/console/api/devices/keys/"+boPair.KeyID, ""); st != 404 {
		t.Fatalf("revoking Bo's device: %d %v", st, v)
	}
	if st, v := ada.change("DELETE", "/console/api/devices/firebase/fb-bo", ""); st != 404 {
		t.Fatalf("unbinding Bo's account: %d %v", st, v)
	}
	if st, _, _ := ada.do("DELETE", "/console/api/devices/keys/"+keyID, ""); st != 403 {
		t.Fatalf("revoking without the CSRF token: %d, want 403", st)
	}
	if st, v := ada.change("DELETE", "/console/api/devices/keys/"+keyID, ""); st != 204 {
		t.Fatalf("revoking: %d %v", st, v)
	}
	if st, _ := srv.call(t, "GET", "/v1/dev/user/conversations", key, ""); st != 401 {
		t.Fatalf("a revoked device's key: %d, want 401", st)
	}
	if st, v := ada.change("DELETE", "/console/api/devices/firebase/fb-ada", ""); st != 204 {
		t.Fatalf("unbinding: %d %v", st, v)
	}
	if d := list(); len(d.Keys) != 0 || len(d.Firebase) != 0 {
		t.Fatalf("after revoking and unbinding: %+v", d)
	}
	// Bo's binding is untouched.
	if _, stderr, code := cli(t, "users", "bind-firebase", "--data", data, "--user", uid, "--firebase-uid", "fb-bo"); code != 2 || !strings.Contains(stderr, "unbind-firebase") {
		t.Fatalf("Bo's binding should still hold: %d %s", code, stderr)
	}
}
