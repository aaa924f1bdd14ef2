// Package realspeechtest gives tests the recorded English corpus
// (realspeech.English) the way make test requires it.
package realspeechtest

import (
	"errors"
	"os"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/realspeech"
)

// English is the recorded English corpus. Its packages missing skip the
// test, unless HEARTH_REQUIRE_E2E_TOOLS is set (make test sets it, and
// scripts/deps.sh test installs them): then the test fails.
func English(t testing.TB) []realspeech.Clip {
	t.Helper()
	clips, err := realspeech.English(t.Context())
	if errors.Is(err, realspeech.ErrMissing) && os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") == "" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return clips
}
