//go:build pocketsphinx && cgo

package pocketsphinx

import (
	"context"
	"errors"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// TestNoFreeDecoderInTimeIsBusy: an utterance whose deadline passes while
// every decoder is taken fails as a timeout that says the machine is busy
// (stt.ErrBusy: "try again"), not as a failure of the route.
func TestNoFreeDecoderInTimeIsBusy(t *testing.T) {
	r, err := New(Config{Decoders: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	held, err := r.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer r.release(held)
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	_, err = r.acquire(ctx)
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.Timeout || !errors.Is(err, stt.ErrBusy) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("no decoder free before the deadline: %v, want a timeout wrapping stt.ErrBusy", err)
	}
}
