// Package providerkeys keeps the remote speech vendors' API keys the owner
// enters in the console, in a file of the data folder readable by the
// appliance's user only. The keys must be usable, so they are stored as
// given (like the environment variables they stand in for), and they are
// never read back out: the console only learns whether one is set.
package providerkeys

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// File is the keys file (DATA/provider-keys.json).
type File struct {
	Path string
	// Providers are the remote routes that take a key, in the order the
	// console lists them (the wiring's vendor table).
	Providers []string
	mu        sync.Mutex
}

// Known lists the providers that take a key.
func (f *File) Known() []string { return f.Providers }

// Load reads every saved key; a missing file is no keys.
func (f *File) Load() (map[string]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.load()
}

func (f *File) load() (map[string]string, error) {
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	} else if err != nil {
		return nil, fmt.Errorf("read provider keys: %w", err)
	}
	keys := map[string]string{}
	if err := json.Unmarshal(b, &keys); err != nil {
		return nil, fmt.Errorf("provider keys %s: %w", f.Path, err)
	}
	return keys, nil
}

// Configured lists the providers with a saved key.
func (f *File) Configured() (map[string]bool, error) {
	keys, err := f.Load()
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for p, k := range keys {
		out[p] = k != ""
	}
	return out, nil
}

// ErrUnknownProvider refuses a provider no route takes a key for.
var ErrUnknownProvider = errors.New("unknown provider")

// Set saves provider's key; an empty key removes it.
func (f *File) Set(provider, key string) error {
	if !slices.Contains(f.Providers, provider) {
		return fmt.Errorf("%w %q (known: %s)", ErrUnknownProvider, provider, strings.Join(f.Providers, ", "))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	keys, err := f.load()
	if err != nil {
		return err
	}
	if key == "" {
		delete(keys, provider)
	} else {
		keys[provider] = key
	}
	b, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return err
	}
	// Written whole and renamed, so a crash leaves the old file or the new.
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".provider-keys-*")
	if err != nil {
		return fmt.Errorf("save provider keys: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save provider keys: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save provider keys: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save provider keys: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save provider keys: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		return fmt.Errorf("save provider keys: %w", err)
	}
	return nil
}
