// Package firebaseauth verifies Firebase ID tokens, the credential the Omi
// app sends in Authorization: Bearer. It is off unless the owner names the
// Firebase project of an app rebuilt to point at this box
// (--firebase-project-id); then it fetches Google's public signing
// certificates, the feature's one outbound call, lazily and no more than
// their Cache-Control allows.
package firebaseauth

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/hearth-appliance/hearth/appliance"
)

// DefaultCertsURL serves the certificates Firebase signs ID tokens with: a
// JSON object of key id → PEM X.509 certificate, with Cache-Control max-age.
const DefaultCertsURL = appliance.DefaultFirebaseCertsURL

// IssuerPrefix + the project id is the iss claim of the project's tokens.
const IssuerPrefix = "https://securetoken.google.com/"

const (
	// clockSkew is how far in the future iat and auth_time may be: phones'
	// clocks drift.
	clockSkew = 5 * time.Minute
	// minRefetch spaces certificate fetches: an unknown key id or an
	// unreachable endpoint costs at most one request a minute.
	minRefetch = time.Minute
	// fetchTimeout bounds one certificate fetch, maxCertsBytes its body
	// (Google's answer is about 4 KB).
	fetchTimeout  = 10 * time.Second
	maxCertsBytes = 1 << 20
)

// ErrInvalid is wrapped by every refusal; the reason follows it, for logs
// only. An expired token also wraps appliance.ErrExpiredToken.
var ErrInvalid = errors.New("invalid Firebase ID token")

// Config configures a Verifier.
type Config struct {
	// ProjectID is the Firebase project whose tokens are accepted: the aud
	// claim, and the iss claim's suffix.
	ProjectID string
	// CertsURL is where the signing certificates are fetched (empty:
	// DefaultCertsURL); a mirror or a test server otherwise.
	CertsURL string
	// Client fetches them; nil is a client with a 10 s timeout.
	Client *http.Client
	Logger *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Verifier checks Firebase ID tokens of one project. It is safe for
// concurrent use.
type Verifier struct {
	project, issuer, certsURL string
	client                    *http.Client
	log                       *slog.Logger
	now                       func() time.Time

	// fetchMu serialises fetches, so that a burst of tokens with an
	// unknown key makes one request.
	fetchMu sync.Mutex

	mu          sync.Mutex
	keys        map[string]*rsa.PublicKey
	expires     time.Time // the keys are fresh until then
	lastAttempt time.Time // the last fetch, successful or not
}

// New returns a verifier for cfg.ProjectID. Nothing is fetched until the
// first token that claims to be the project's.
func New(cfg Config) (*Verifier, error) {
	if strings.TrimSpace(cfg.ProjectID) == "" || strings.ContainsAny(cfg.ProjectID, "/ ") {
		return nil, fmt.Errorf("firebase project id %q is not a project id", cfg.ProjectID)
	}
	if cfg.CertsURL == "" {
		cfg.CertsURL = DefaultCertsURL
	}
	if u, err := url.Parse(cfg.CertsURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("firebase certs url %q is not an http(s) URL", cfg.CertsURL)
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: fetchTimeout}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Verifier{project: cfg.ProjectID, issuer: IssuerPrefix + cfg.ProjectID, certsURL: cfg.CertsURL,
		client: cfg.Client, log: cfg.Logger, now: cfg.Now}, nil
}

// claims are a Firebase ID token's: the registered ones and auth_time.
type claims struct {
	jwt.RegisteredClaims
	AuthTime *jwt.NumericDate `json:"auth_time"`
}

// Verify checks token's algorithm (RS256 only), key id, signature and
// claims, and returns the Firebase uid (sub).
func (v *Verifier) Verify(ctx context.Context, token string) (string, error) {
	// The header and claims are read before any key is looked up: a token
	// that does not claim to be this project's never causes a fetch.
	var c claims
	unverified, _, err := jwt.NewParser().ParseUnverified(token, &c)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if alg := unverified.Method.Alg(); alg != jwt.SigningMethodRS256.Alg() {
		return "", fmt.Errorf("%w: algorithm %q is not RS256", ErrInvalid, alg)
	}
	kid, _ := unverified.Header["kid"].(string)
	if kid == "" {
		return "", fmt.Errorf("%w: no key id", ErrInvalid)
	}
	if err := v.checkIssuer(&c); err != nil {
		return "", err
	}
	key, err := v.key(ctx, kid)
	if err != nil {
		return "", err
	}
	// Signature first; claims are then checked here rather than by the
	// library, so that each rule is Firebase's.
	c = claims{}
	_, err = jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodRS256.Alg()}), jwt.WithoutClaimsValidation())
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := v.checkIssuer(&c); err != nil {
		return "", err
	}
	return v.checkClaims(&c)
}

// checkIssuer checks aud and iss: the token must be this project's.
func (v *Verifier) checkIssuer(c *claims) error {
	if len(c.Audience) != 1 || c.Audience[0] != v.project {
		return fmt.Errorf("%w: audience %q is not project %q", ErrInvalid, []string(c.Audience), v.project)
	}
	if c.Issuer != v.issuer {
		return fmt.Errorf("%w: issuer %q is not %q", ErrInvalid, c.Issuer, v.issuer)
	}
	return nil
}

// checkClaims checks sub, exp, iat and auth_time of a verified token.
func (v *Verifier) checkClaims(c *claims) (string, error) {
	now := v.now()
	switch {
	case c.Subject == "" || len(c.Subject) > appliance.MaxFirebaseUIDLen:
		return "", fmt.Errorf("%w: subject is empty or longer than %d", ErrInvalid, appliance.MaxFirebaseUIDLen)
	case c.ExpiresAt == nil:
		return "", fmt.Errorf("%w: no expiry", ErrInvalid)
	case !now.Before(c.ExpiresAt.Time):
		return "", fmt.Errorf("%w: %w", ErrInvalid, appliance.ErrExpiredToken)
	case c.IssuedAt == nil || c.IssuedAt.After(now.Add(clockSkew)):
		return "", fmt.Errorf("%w: issued in the future or not at all", ErrInvalid)
	case c.AuthTime == nil || c.AuthTime.After(now.Add(clockSkew)):
		return "", fmt.Errorf("%w: signed in in the future or not at all", ErrInvalid)
	}
	return c.Subject, nil
}

// key returns the public key kid names, fetching the certificates when they
// are stale or kid is unknown, at most once per minRefetch.
func (v *Verifier) key(ctx context.Context, kid string) (*rsa.PublicKey, error) {
	if k, done, err := v.cached(kid); done {
		return k, err
	}
	v.fetchMu.Lock()
	defer v.fetchMu.Unlock()
	// Another caller may have fetched while this one waited.
	if k, done, err := v.cached(kid); done {
		return k, err
	}
	v.refresh(ctx)
	k, _, err := v.cached(kid)
	return k, err
}

// cached answers from the cache: the key, or why not (done), or that a
// fetch may help (not done).
func (v *Verifier) cached(kid string) (key *rsa.PublicKey, done bool, err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	fresh := now.Before(v.expires)
	if k, ok := v.keys[kid]; ok && fresh {
		return k, true, nil
	}
	if !v.lastAttempt.IsZero() && now.Sub(v.lastAttempt) < minRefetch {
		if fresh {
			return nil, true, fmt.Errorf("%w: unknown key id %q", ErrInvalid, kid)
		}
		return nil, true, fmt.Errorf("%w: Firebase's signing certificates are unavailable", ErrInvalid)
	}
	return nil, false, nil
}

// refresh fetches the certificates and replaces the cache; a failure is
// logged once, here, and leaves the cache as it was. The attempt is
// recorded when it is over: until then, callers that find the cache
// wanting wait on fetchMu for its result rather than being refused.
func (v *Verifier) refresh(ctx context.Context) {
	started := v.now()
	keys, maxAge, err := v.fetch(ctx)
	v.mu.Lock()
	v.lastAttempt = started
	if err == nil {
		v.keys = keys
		// Never fresher than the refetch spacing allows: a max-age of 0
		// would otherwise refuse every token between fetches.
		v.expires = started.Add(max(maxAge, minRefetch))
	}
	v.mu.Unlock()
	if err != nil {
		v.log.Warn("firebase signing certificates: fetch failed; Firebase ID tokens are refused until a fetch succeeds (retried after a minute)",
			"url", v.certsURL, "err", err)
		return
	}
	v.log.Debug("firebase signing certificates fetched", "keys", len(keys), "max_age", maxAge)
}

func (v *Verifier) fetch(ctx context.Context) (map[string]*rsa.PublicKey, time.Duration, error) {
	// The caller's request may end at any moment; the fetch serves every
	// caller, so it runs on its own deadline.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.certsURL, nil)
	if err != nil {
		return nil, 0, err
	}
	resp, err := v.client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, 0, fmt.Errorf("status %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCertsBytes+1))
	if err != nil {
		return nil, 0, fmt.Errorf("read: %w", err)
	}
	if len(body) > maxCertsBytes {
		return nil, 0, fmt.Errorf("answer larger than %d bytes", maxCertsBytes)
	}
	keys, err := parseCerts(body)
	if err != nil {
		return nil, 0, err
	}
	return keys, maxAge(resp.Header.Get("Cache-Control")), nil
}

// parseCerts reads the certificate endpoint's answer: key id → PEM X.509
// certificate with an RSA key. Every entry must parse.
func parseCerts(body []byte) (map[string]*rsa.PublicKey, error) {
	var raw map[string]string
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("decode certificates: %w", err)
	}
	keys := make(map[string]*rsa.PublicKey, len(raw))
	for kid, p := range raw {
		block, _ := pem.Decode([]byte(p))
		if block == nil || block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("key %q: not a PEM certificate", kid)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", kid, err)
		}
		pub, ok := cert.PublicKey.(*rsa.PublicKey)
		if !ok {
			return nil, fmt.Errorf("key %q: not an RSA key", kid)
		}
		keys[kid] = pub
	}
	if len(keys) == 0 {
		return nil, errors.New("no certificates")
	}
	return keys, nil
}

// maxAge reads Cache-Control's max-age; 0 when absent or unreadable.
func maxAge(cacheControl string) time.Duration {
	for _, d := range strings.Split(cacheControl, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(d), "=")
		if !ok || !strings.EqualFold(name, "max-age") {
			continue
		}
		if n, err := strconv.Atoi(strings.Trim(val, `"`)); err == nil && n > 0 {
			return time.Duration(n) * time.Second
		}
	}
	return 0
}
