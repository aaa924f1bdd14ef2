//go:build pocketsphinx && cgo

package pocketsphinx

import (
	"debug/elf"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// TestDecodersLoadConcurrently: sessions and uploads that need a decoder
// at the same moment each get one (loads that ran at once could deadlock
// in the library's shared log file).
func TestDecodersLoadConcurrently(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 {
			var wg sync.WaitGroup
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					d, err := newDecoder(DefaultModelDir)
					if err != nil {
						t.Error(err)
						return
					}
					d.close()
				}()
			}
			wg.Wait()
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("decoders loading at once did not finish within 2 minutes")
	}
}

// TestLibraryLoadFailures: the library is opened at the first decoder's
// load; one that is missing, or is not PocketSphinx, makes the route not
// deployable (config_error) with a reason that says what to install, and
// leaves the library already loaded in use.
func TestLibraryLoadFailures(t *testing.T) {
	for _, name := range []string{"libpocketsphinx-missing.so.3", "libm.so.6"} {
		err := loadLibrary(name)
		var e *stt.Error
		if !errors.As(err, &e) || e.Outcome != stt.ConfigError {
			t.Fatalf("loadLibrary(%q) = %v, want a config_error", name, err)
		}
		if !strings.Contains(e.Reason, "libpocketsphinx3") || !strings.Contains(err.Error(), name) {
			t.Errorf("loadLibrary(%q): reason %q, error %q: want the package to install and the library named", name, e.Reason, err)
		}
	}
	e, err := NewEngine("")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Decode(make([]int16, 16000)); err != nil {
		t.Fatalf("decoding after failed loads: %v", err)
	}
}

// TestLibraryIsNotLinked: libpocketsphinx is opened at the first decoder's
// load, not by the dynamic loader on every start. A library function
// called by name instead of through hs_lib (add it to HS_FUNCS) would
// link the library, and what it pulls in, again. (On macOS it stays
// linked: cgo allows no flag that drops it.)
func TestLibraryIsNotLinked(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the library is linked on " + runtime.GOOS)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range libs {
		if strings.Contains(l, "pocketsphinx") || strings.Contains(l, "sphinxbase") {
			t.Errorf("the binary needs %s at start (needed: %v)", l, libs)
		}
	}
}
