package main

import "github.com/hearth-appliance/hearth/appliance/idtoken"

// identityKey is the appliance's ID-token key, read (or, on a first
// start, made and synced to disk) beside the rest of start-up rather than
// before it: that took ~1 ms of a restart and 2-8 ms of a first start
// (the new key's fsync) before /healthz could answer, and nothing needs
// the key until a request carries an ID token. Such a request waits for
// it; Run waits for it too once serving has started, so that a key that
// cannot be read still stops the appliance.
type identityKey struct {
	ready  chan struct{}
	signer *idtoken.Signer
	err    error
}

// loadIdentityKey starts reading the key in dataDir.
func loadIdentityKey(dataDir string) *identityKey {
	k := &identityKey{ready: make(chan struct{})}
	go func() {
		defer close(k.ready)
		k.signer, k.err = idtoken.LoadOrCreate(dataDir)
	}()
	return k
}

// wait blocks until the key is loaded and reports why it is not.
func (k *identityKey) wait() error {
	<-k.ready
	return k.err
}

// Verify implements authn.TokenVerifier.
func (k *identityKey) Verify(token string) (string, error) {
	if err := k.wait(); err != nil {
		return "", err
	}
	return k.signer.Verify(token)
}
