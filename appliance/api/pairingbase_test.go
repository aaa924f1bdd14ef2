package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPairingBaseURLIsSchemeHostPort: the base URL a phone is told to use
// is scheme://host[:port]; a path, query, userinfo or quotes are refused
// with 422 in the {detail:[{loc,msg,type}]} shape, on a loopback socket.
func TestPairingBaseURLIsSchemeHostPort(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ts := httptest.NewServer(e.srv)
	t.Cleanup(ts.Close)
	for base, want := range map[string]string{
		"https://192.168.7.7:8443":     "https://192.168.7.7:8443",
		"http://hearth.local:8080/":    "http://hearth.local:8080",
		"http://[fd00::7]:8080":        "http://[fd00::7]:8080",
		"http://hearth.local/x":        "",
		`http://hearth.local/"><b>`:    "",
		`http://hearth"x.local`:        "",
		"http://hearth.local:8080?a=b": "",
		"http://user@hearth.local":     "",
		"http://hearth.local:99999":    "",
		"ftp://hearth.local":           "",
		"http://hearth.local#frag":     "",
	} {
		body, _ := json.Marshal(map[string]string{"base_url": base})
		req, _ := http.NewRequest("POST", ts.URL+"/v1/pairing", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", bearer(e.token))
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want != "" {
			var out struct {
				BaseURL string `json:"base_url"`
			}
			if json.Unmarshal(b, &out); resp.StatusCode != 200 || out.BaseURL != want {
				t.Errorf("%s: %d %s, want base_url %s", base, resp.StatusCode, b, want)
			}
			continue
		}
		var refusal struct {
			Detail []struct {
				Loc  []string `json:"loc"`
				Msg  string   `json:"msg"`
				Type string   `json:"type"`
			} `json:"detail"`
		}
		if json.Unmarshal(b, &refusal); resp.StatusCode != 422 || len(refusal.Detail) != 1 || strings.Join(refusal.Detail[0].Loc, ".") != "body.base_url" ||
			refusal.Detail[0].Type != "value_error" || refusal.Detail[0].Msg == "" {
			t.Errorf("%s: %d %s, want 422 on body.base_url", base, resp.StatusCode, b)
		}
	}
}
