// Package speechsettings keeps the speech settings the owner changes in
// the console (the routes' order, the whisper model) in a file of the data
// folder, so they outlive a restart. Flags win over them (cmd/hearth).
package speechsettings

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Settings are the saved choices; zero values are the defaults.
type Settings struct {
	// Routes is the routes' order by name; empty is the default order.
	Routes []string `json:"routes,omitempty"`
	// WhisperModel is a catalog name; empty is the best model pulled.
	WhisperModel string `json:"whisper_model,omitempty"`
}

// File is the settings file (DATA/speech-settings.json).
type File struct {
	Path string
	mu   sync.Mutex
}

// Load reads the settings; a missing file is the defaults.
func (f *File) Load() (Settings, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var s Settings
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	} else if err != nil {
		return s, fmt.Errorf("read speech settings: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("speech settings %s: %w", f.Path, err)
	}
	return s, nil
}

// Update changes the saved settings with change, written whole and
// renamed, so a crash leaves the old file or the new.
func (f *File) Update(change func(*Settings)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var s Settings
	if b, err := os.ReadFile(f.Path); err == nil {
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("speech settings %s: %w", f.Path, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read speech settings: %w", err)
	}
	change(&s)
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".speech-settings-*")
	if err != nil {
		return fmt.Errorf("save speech settings: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save speech settings: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save speech settings: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save speech settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		return fmt.Errorf("save speech settings: %w", err)
	}
	return nil
}
