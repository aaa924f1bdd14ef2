package firebaseauth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/firebaseauth"
	"github.com/hearth-appliance/hearth/appliance/firebaseauth/firebasetest"
	"github.com/hearth-appliance/hearth/appliance/logtest"
)

const project = "hearth-test-app"

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newVerifier(t *testing.T, iss *firebasetest.Issuer) (*firebaseauth.Verifier, *clock, *logtest.Buffer) {
	t.Helper()
	clk := &clock{t: time.Now()}
	logs := &logtest.Buffer{}
	v, err := firebaseauth.New(firebaseauth.Config{ProjectID: project, CertsURL: iss.URL, Now: clk.Now,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return v, clk, logs
}

func with(c jwt.MapClaims, kv ...any) jwt.MapClaims {
	out := jwt.MapClaims{}
	for k, v := range c {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestVerify(t *testing.T) {
	t.Parallel()
	iss := firebasetest.New(t, project)
	v, clk, _ := newVerifier(t, iss)
	now := clk.Now()
	good := iss.Claims("fb-ada", now)

	hs256 := jwt.NewWithClaims(jwt.SigningMethodHS256, good)
	hs256.Header["kid"] = "test-key-1"
	hsToken, _ := hs256.SignedString([]byte("a shared secret"))
	none := jwt.NewWithClaims(jwt.SigningMethodNone, good)
	none.Header["kid"] = "test-key-1"
	noneToken, _ := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	signed := iss.Sign(t, good)
	parts := strings.Split(signed, ".")
	// Another subject under the original signature.
	forged := parts[0] + "." + strings.Split(iss.Sign(t, with(good, "sub", "fb-mallory")), ".")[1] + "." + parts[2]
	sig := []byte(parts[2])
	sig[10] ^= 1
	tampered := parts[0] + "." + parts[1] + "." + string(sig)
	unknownKid := jwt.NewWithClaims(jwt.SigningMethodRS256, good)
	unknownKid.Header["kid"] = "not-a-key"

	for _, tc := range []struct {
		name    string
		token   string
		wantUID string
		expired bool
	}{
		{name: "good token", token: signed, wantUID: "fb-ada"},
		{name: "issued a minute ahead (clock skew)", token: iss.Sign(t, with(good, "iat", now.Add(time.Minute).Unix(), "auth_time", now.Add(time.Minute).Unix())), wantUID: "fb-ada"},
		{name: "wrong audience", token: iss.Sign(t, with(good, "aud", "someone-elses-app"))},
		{name: "two audiences", token: iss.Sign(t, with(good, "aud", []string{project, "other"}))},
		{name: "wrong issuer", token: iss.Sign(t, with(good, "iss", "https://securetoken.google.com/someone-elses-app"))},
		{name: "hearth issuer", token: iss.Sign(t, with(good, "iss", "hearth"))},
		{name: "expired", token: iss.Sign(t, with(good, "exp", now.Add(-time.Second).Unix())), expired: true},
		{name: "no expiry", token: iss.Sign(t, with(good, "exp", nil))},
		{name: "issued in the future", token: iss.Sign(t, with(good, "iat", now.Add(10*time.Minute).Unix()))},
		{name: "no iat", token: iss.Sign(t, with(good, "iat", nil))},
		{name: "signed in in the future", token: iss.Sign(t, with(good, "auth_time", now.Add(10*time.Minute).Unix()))},
		{name: "no auth_time", token: iss.Sign(t, with(good, "auth_time", nil))},
		{name: "empty subject", token: iss.Sign(t, with(good, "sub", ""))},
		{name: "subject of 129 characters", token: iss.Sign(t, with(good, "sub", strings.Repeat("a", 129)))},
		{name: "alg none", token: noneToken},
		{name: "HS256 with a shared secret", token: hsToken},
		{name: "tampered signature", token: tampered},
		{name: "claims swapped under a signature", token: forged},
		{name: "unknown key id", token: func() string { s, _ := unknownKid.SignedString(rsaKeyOf(t)); return s }()},
		{name: "garbage", token: "not.a.jwt"},
		{name: "empty", token: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uid, err := v.Verify(context.Background(), tc.token)
			switch {
			case tc.wantUID != "":
				if err != nil || uid != tc.wantUID {
					t.Fatalf("got %q, %v; want %q", uid, err, tc.wantUID)
				}
			case err == nil:
				t.Fatalf("accepted as %q", uid)
			case !errors.Is(err, firebaseauth.ErrInvalid):
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			case errors.Is(err, appliance.ErrExpiredToken) != tc.expired:
				t.Fatalf("error %v: expired = %v, want %v", err, !tc.expired, tc.expired)
			}
		})
	}
}

func rsaKeyOf(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestNoFetchForForeignTokens: a token that does not claim to be the
// project's, or is not RS256 with a key id, never reaches the network.
func TestNoFetchForForeignTokens(t *testing.T) {
	t.Parallel()
	iss := firebasetest.New(t, project)
	v, clk, _ := newVerifier(t, iss)
	good := iss.Claims("fb-ada", clk.Now())
	for _, tok := range []string{
		iss.Sign(t, with(good, "aud", "someone-elses-app")),
		iss.Sign(t, with(good, "iss", "hearth")),
		"garbage",
		func() string {
			s, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, good).SignedString([]byte("k"))
			return s
		}(),
	} {
		if _, err := v.Verify(context.Background(), tok); err == nil {
			t.Fatal("a foreign token verified")
		}
	}
	if n := iss.Fetches(); n != 0 {
		t.Fatalf("%d certificate fetches for tokens that are not the project's", n)
	}
}

// TestCertificatesCachedForMaxAge: one fetch serves every token until
// max-age has passed; then the next token fetches again.
func TestCertificatesCachedForMaxAge(t *testing.T) {
	t.Parallel()
	iss := firebasetest.New(t, project)
	iss.SetMaxAge(600)
	v, clk, _ := newVerifier(t, iss)
	verify := func() {
		t.Helper()
		if _, err := v.Verify(context.Background(), iss.Sign(t, iss.Claims("fb-ada", clk.Now()))); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		verify()
	}
	clk.Add(599 * time.Second)
	verify()
	if n := iss.Fetches(); n != 1 {
		t.Fatalf("%d fetches within max-age, want 1", n)
	}
	clk.Add(2 * time.Second)
	verify()
	verify()
	if n := iss.Fetches(); n != 2 {
		t.Fatalf("%d fetches after max-age, want 2", n)
	}
}

// TestCertificateRotation: a token signed with a key the cache does not
// hold yet fetches again, but no more than once a minute; a retired key's
// tokens are refused once the new set is fetched.
func TestCertificateRotation(t *testing.T) {
	t.Parallel()
	iss := firebasetest.New(t, project)
	v, clk, _ := newVerifier(t, iss)
	ctx := context.Background()
	old := iss.Sign(t, iss.Claims("fb-ada", clk.Now()))
	if _, err := v.Verify(ctx, old); err != nil {
		t.Fatal(err)
	}
	iss.Rotate(t)
	fresh := iss.Sign(t, iss.Claims("fb-ada", clk.Now()))
	// Within a minute of the last fetch, an unknown key is refused
	// without another request.
	if _, err := v.Verify(ctx, fresh); err == nil {
		t.Fatal("a token of an unknown key verified")
	}
	if n := iss.Fetches(); n != 1 {
		t.Fatalf("%d fetches, want 1 (refetches are a minute apart)", n)
	}
	clk.Add(61 * time.Second)
	if uid, err := v.Verify(ctx, fresh); err != nil || uid != "fb-ada" {
		t.Fatalf("after rotation: %q, %v", uid, err)
	}
	if n := iss.Fetches(); n != 2 {
		t.Fatalf("%d fetches, want 2", n)
	}
	// The old key is no longer served: its tokens are refused, and the
	// refusal costs no request within the minute.
	if _, err := v.Verify(ctx, old); err == nil {
		t.Fatal("a retired key's token verified")
	}
	if n := iss.Fetches(); n != 2 {
		t.Fatalf("%d fetches, want 2", n)
	}
}

// TestFetchFailure: while the endpoint fails, tokens are refused; each
// failed fetch is logged once, without the token, and retried after a
// minute.
func TestFetchFailure(t *testing.T) {
	t.Parallel()
	iss := firebasetest.New(t, project)
	iss.SetFailing(true)
	v, clk, logs := newVerifier(t, iss)
	ctx := context.Background()
	tok := iss.Sign(t, iss.Claims("fb-ada", clk.Now()))
	for range 3 {
		if _, err := v.Verify(ctx, tok); !errors.Is(err, firebaseauth.ErrInvalid) || errors.Is(err, appliance.ErrExpiredToken) {
			t.Fatalf("with the endpoint down: %v", err)
		}
	}
	if n, logged := iss.Fetches(), strings.Count(logs.String(), "fetch failed"); n != 1 || logged != 1 {
		t.Fatalf("%d fetches and %d log lines for three tokens within a minute, want 1 and 1", n, logged)
	}
	if strings.Contains(logs.String(), tok) || strings.Contains(logs.String(), strings.Split(tok, ".")[1]) {
		t.Fatal("the token is in the log")
	}
	iss.SetFailing(false)
	clk.Add(61 * time.Second)
	if uid, err := v.Verify(ctx, tok); err != nil || uid != "fb-ada" {
		t.Fatalf("after the endpoint recovered: %q, %v", uid, err)
	}
}

// TestConcurrentFirstTokens: a burst of tokens on a cold cache makes one
// request.
func TestConcurrentFirstTokens(t *testing.T) {
	t.Parallel()
	iss := firebasetest.New(t, project)
	v, clk, _ := newVerifier(t, iss)
	tok := iss.Sign(t, iss.Claims("fb-ada", clk.Now()))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			if _, err := v.Verify(context.Background(), tok); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if n := iss.Fetches(); n != 1 {
		t.Fatalf("%d fetches for a burst, want 1", n)
	}
}

func TestNewRefusesABadConfig(t *testing.T) {
	t.Parallel()
	for _, cfg := range []firebaseauth.Config{
		{},
		{ProjectID: "a/b"},
		{ProjectID: "p", CertsURL: "ftp://example.com/certs"},
		{ProjectID: "p", CertsURL: "not a url"},
	} {
		if _, err := firebaseauth.New(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}
