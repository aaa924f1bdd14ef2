package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// httpsURL is the "hearth serving https" log line's url.
func httpsURL(t *testing.T, s *server) string {
	t.Helper()
	for _, line := range strings.Split(s.logs.String(), "\n") {
		var rec struct{ Msg, URL string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "hearth serving https" {
			return rec.URL
		}
	}
	t.Fatalf("no https line in the log:\n%s", s.logs)
	return ""
}

// TestHTTPSAndWSSWithLocalCA: serve with --tls-addr makes its own CA, offers
// it for download over plain HTTP, and a client trusting only that CA uses
// the API over HTTPS and a live session over wss.
func TestHTTPSAndWSSWithLocalCA(t *testing.T) {
	t.Parallel()
	packets := speechOpusFS320(t, "Please remind me to renew the car insurance next week.")
	data := t.TempDir()
	script := writeScript(t, `{"name":"scripted","utterances":[{"text":"Please remind me to renew the car insurance next week.","speaker":0}]}`)
	srv := startServe(t, data, script, "HEARTH_TLS_ADDR=127.0.0.1:0", "HEARTH_MDNS=false")
	base := httpsURL(t, srv)
	if !strings.HasPrefix(base, "https://127.0.0.1:") {
		t.Fatalf("https url %q", base)
	}

	resp, err := client.Get(srv.base + "/lan/ca.crt")
	if err != nil {
		t.Fatal(err)
	}
	caPEM, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-x509-ca-cert" {
		t.Fatalf("ca download: %d %s", resp.StatusCode, resp.Header)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPEM) {
		t.Fatalf("ca download is not a PEM certificate: %q", caPEM)
	}
	for _, f := range []string{"ca.key", "server.key", "ca.crt", "server.crt"} {
		if st, err := os.Stat(filepath.Join(data, "tls", f)); err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("DATA/tls/%s: %v, want 0600", f, err)
		}
	}

	tlsCfg := &tls.Config{RootCAs: roots}
	https := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: tlsCfg}}
	for _, host := range []string{base, strings.Replace(base, "127.0.0.1", "localhost", 1)} {
		resp, err := https.Get(host + "/healthz")
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Strict-Transport-Security") != "" {
			t.Fatalf("%s/healthz: %d, HSTS %q (must stay off for LAN names)", host, resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
		}
	}
	if _, err := (&http.Client{Timeout: 5 * time.Second}).Get(base + "/healthz"); err == nil {
		t.Fatal("a client without the CA trusted the certificate")
	}

	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)
	h := http.Header{"Authorization": {"Bearer " + token}}
	dialer := websocket.Dialer{TLSClientConfig: tlsCfg, HandshakeTimeout: 10 * time.Second}
	conn, _, err := dialer.Dial(strings.Replace(base, "https://", "wss://", 1)+"/v4/listen?"+appQuery(uid, "opus_fs320", 2, ""), h)
	if err != nil {
		t.Fatalf("wss dial: %v", err)
	}
	c := &wsClient{t: t, conn: conn, msgs: make(chan wsMsg, 1024)}
	go func() {
		defer close(c.msgs)
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			c.msgs <- wsMsg{text: string(data)}
		}
	}()
	defer conn.Close()
	c.until(10*time.Second, "ready", func(m wsMsg) bool { return event(m, "service_status") != nil })
	go c.stream(packets, 4)
	m := c.until(20*time.Second, "segments", func(m wsMsg) bool { return segmentsOf(m) != nil })
	if !strings.Contains(segmentsOf(m)[0]["text"].(string), "car insurance") {
		t.Fatalf("segments over wss: %s", m.text)
	}
	conn.Close()

	// The command-line client reaches the same appliance over wss with --ca.
	caFile := filepath.Join(t.TempDir(), "ca.crt")
	os.WriteFile(caFile, caPEM, 0o600)
	wav := speechWAV(t, "Please remind me to renew the car insurance next week.")
	out, errOut, code := cli(t, "listen", "--file", wav, "--url", base, "--ca", caFile, "--token", token, "--speed", "0")
	if code != 0 || !strings.Contains(out, "car insurance") {
		t.Fatalf("hearth listen --url https --ca: %d\n%s\n%s", code, out, errOut)
	}
	if _, errOut, code := cli(t, "listen", "--file", wav, "--url", base, "--token", token, "--speed", "0"); code == 0 || !strings.Contains(errOut, "certificate") {
		t.Fatalf("without --ca the client trusted the local CA: %d %s", code, errOut)
	}
}

func TestTLSConfigRefusals(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	for _, tc := range []struct{ env, want string }{
		{"HEARTH_TLS_CERT=/x.pem", "tls cert and tls key go together"},
		{"HEARTH_PLAIN_HTTP=nobody", "plain http"},
		{"HEARTH_TLS_ADDR=nonsense", "tls addr"},
	} {
		cmd := execHearth("serve", "--data", data, "--addr", "127.0.0.1:0")
		cmd.Env = append(os.Environ(), tc.env)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s: %v %s, want %q", tc.env, err, out, tc.want)
		}
	}
	// An owner pair that does not load is reported at start, not at the first handshake.
	bad := filepath.Join(t.TempDir(), "c.pem")
	os.WriteFile(bad, []byte("not a certificate"), 0o600)
	cmd := execHearth("serve", "--data", data, "--addr", "127.0.0.1:0", "--tls-addr", "127.0.0.1:0", "--tls-cert", bad, "--tls-key", bad)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "tls certificate") {
		t.Errorf("bad owner certificate: %v %s", err, out)
	}
}

func execHearth(args ...string) *exec.Cmd { return exec.Command(hearthBin, args...) }
