package speechsettings

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestUpdateAndLoad(t *testing.T) {
	f := &File{Path: filepath.Join(t.TempDir(), "speech-settings.json")}
	if s, err := f.Load(); err != nil || s.Routes != nil || s.WhisperModel != "" {
		t.Fatalf("no file: %+v %v, want the defaults", s, err)
	}
	if err := f.Update(func(s *Settings) { s.Routes = []string{"deepgram", "pocketsphinx"} }); err != nil {
		t.Fatal(err)
	}
	if err := f.Update(func(s *Settings) { s.WhisperModel = "base.en" }); err != nil {
		t.Fatal(err)
	}
	s, err := f.Load()
	if err != nil || !slices.Equal(s.Routes, []string{"deepgram", "pocketsphinx"}) || s.WhisperModel != "base.en" {
		t.Fatalf("%+v %v: one change undid the other", s, err)
	}
}
