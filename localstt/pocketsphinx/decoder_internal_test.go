//go:build pocketsphinx && cgo

package pocketsphinx

import (
	"sync"
	"testing"
	"time"
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
