package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPairingPhone: the owner asks for a QR code with a fresh key; the code
// read back with a real QR reader opens the pairing page with the base URL
// and the key, and the key works on the API.
func TestPairingPhone(t *testing.T) {
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
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)

	if code, _ := srv.call(t, "POST", "/v1/pairing", "", `{"mint_key":true}`); code != 401 {
		t.Fatalf("pairing without a token: %d, want 401", code)
	}
	if code, body := srv.call(t, "POST", "/v1/pairing", token, `{"base_url":"ftp://x"}`); code != 422 || !strings.Contains(body, `"loc":["body","base_url"]`) {
		t.Fatalf("bad base_url: %d %s", code, body)
	}

	code, body := srv.call(t, "POST", "/v1/pairing", token, `{"mint_key":true,"base_url":"https://192.168.7.7:8443"}`)
	if code != 200 {
		t.Fatalf("pairing: %d %s", code, body)
	}
	var p struct{ BaseURL, PairURL, QRPNG, Key, KeyID, Warning string }
	json.Unmarshal([]byte(strings.NewReplacer(`"base_url"`, `"BaseURL"`, `"pair_url"`, `"PairURL"`, `"qr_png"`, `"QRPNG"`, `"key_id"`, `"KeyID"`).Replace(body)), &p)
	if p.BaseURL != "https://192.168.7.7:8443" || !strings.HasPrefix(p.Key, "hearth_dev_") || p.Warning != "" {
		t.Fatalf("pairing response %s", body)
	}
	png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(p.QRPNG, "data:image/png;base64,"))
	if err != nil {
		t.Fatalf("qr_png: %v", err)
	}
	img := filepath.Join(t.TempDir(), "qr.png")
	os.WriteFile(img, png, 0o600)
	out, err := exec.Command(zbar, "--raw", "-q", img).Output()
	if err != nil {
		t.Fatalf("zbarimg could not read the QR code: %v", err)
	}
	read := strings.TrimSpace(string(out))
	if read != p.PairURL || !strings.HasPrefix(read, "https://192.168.7.7:8443/pair#") || !strings.Contains(read, "key="+p.Key) {
		t.Fatalf("QR code says %q, pair_url %q", read, p.PairURL)
	}

	// The minted key is a working developer key of the owner's.
	if code, body := srv.call(t, "GET", "/v1/dev/user/conversations", p.Key, ""); code != 200 {
		t.Fatalf("minted key: %d %s", code, body)
	}
	if code, body := srv.call(t, "GET", "/v1/dev/keys", token, ""); code != 200 || !strings.Contains(body, p.KeyID) || strings.Contains(body, p.Key) {
		t.Fatalf("keys list: %d %s", code, body)
	}
	// Without mint_key no key is made, and a loopback address is flagged.
	code, body = srv.call(t, "POST", "/v1/pairing", token, `{}`)
	if code != 200 || strings.Contains(body, `"key"`) || !strings.Contains(body, `"warning"`) || !strings.Contains(body, srv.base) {
		t.Fatalf("pairing without key: %d %s", code, body)
	}

	// The page the code opens is served standalone.
	resp, err := client.Get(srv.base + "/pair")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("/pair: %d %v", resp.StatusCode, resp.Header)
	}
}
