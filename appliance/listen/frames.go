package listen

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// frames is the one path of a live connection's audio (the wearable
// socket and the custom-STT service alike): each frame is decoded, kept in
// the spool until the route confirms it, offered to the voice ring, and
// fed to the route; the route's words are collected for the next flush.
// It also knows when audio stopped arriving, so that the utterance in
// progress can be ended without waiting for a pause that never comes.
type frames struct {
	dec    audio.Decoder
	stream stt.Stream
	spool  *spool
	ring   *voiceRing // nil unless the session recognises voices
	now    func() time.Time
	// tape keeps every frame on disk while the route may skip audio
	// (nil when it may not); behind is told when the route starts
	// skipping.
	tape   *tape
	behind func()
	// keep writes the audio into the conversation's kept recording (nil:
	// none is kept).
	keep *keeper

	lastAudio atomic.Int64 // unix nanoseconds of the last decoded frame
	fed       atomic.Int64 // samples decoded so far: the stream's length
	batches   atomic.Int64 // word batches the route has given (barriers too)
	drained   atomic.Bool  // the route was drained since that frame
	bad       atomic.Int64 // undecodable frames
	closing   atomic.Bool  // the connection ended: the route hears out the rest

	// A drain waits for the route's barrier (an empty batch on Words), or
	// for the pump's end; one drain at a time, so that a barrier answers
	// the drain that asked for it.
	drainMu  sync.Mutex
	barrier  chan struct{} // one slot
	pumpDone chan struct{}

	mu    sync.Mutex
	words []stt.Word // delivered, not yet flushed
}

func newFrames(dec audio.Decoder, stream stt.Stream, ring *voiceRing, now func() time.Time) *frames {
	return &frames{dec: dec, stream: stream, spool: newSpool(), ring: ring, now: now,
		barrier: make(chan struct{}, 1), pumpDone: make(chan struct{})}
}

// feed decodes one frame and sends it to the route. An undecodable frame
// is skipped and counted; a route that has failed is reported by the pump.
func (f *frames) feed(frame []byte) {
	pcm, err := f.dec.Decode(nil, frame)
	if err != nil {
		f.bad.Add(1)
		return
	}
	f.lastAudio.Store(f.now().UnixNano())
	f.fed.Add(int64(len(pcm)))
	f.drained.Store(false)
	f.spool.add(pcm)
	if f.ring != nil {
		f.ring.add(pcm)
	}
	if f.tape != nil {
		f.tape.add(pcm)
	}
	if f.keep != nil {
		f.keep.add(pcm, frame)
	}
	if err := f.stream.Send(pcm); errors.Is(err, stt.ErrBehind) && f.behind != nil {
		f.behind()
	}
}

// pump collects the route's words until its Words channel closes; each
// batch goes through shape (the session restores sentences) first.
func (f *frames) pump(shape func([]stt.Word) []stt.Word) {
	defer close(f.pumpDone)
	for ws := range f.stream.Words() {
		f.batches.Add(1)
		if len(ws) == 0 { // a drain's barrier: every word before it is taken
			select {
			case f.barrier <- struct{}{}:
			default:
			}
			continue
		}
		if shape != nil {
			ws = shape(ws)
		}
		f.mu.Lock()
		f.words = append(f.words, ws...)
		f.mu.Unlock()
		if n := len(ws); n > 0 {
			f.spool.confirm(ws[n-1].End)
		}
	}
}

// take returns the words collected since the last take.
func (f *frames) take() []stt.Word {
	f.mu.Lock()
	defer f.mu.Unlock()
	ws := f.words
	f.words = nil
	return ws
}

// stalled reports, once per stall, that audio has flowed and then stopped
// for gap: the wearable's button was released, or the phone lost it for a
// moment. The utterance in progress will get no pause to end it.
func (f *frames) stalled(gap time.Duration) bool {
	last := f.lastAudio.Load()
	if last == 0 || f.now().Sub(time.Unix(0, last)) < gap {
		return false
	}
	return f.drained.CompareAndSwap(false, true)
}

// settle waits, at most max, until no frame has arrived for quiet: the
// frames a client sent just before it asked for the end are still on
// their way, and belong before the end.
func (f *frames) settle(quiet, max time.Duration) {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		last := f.lastAudio.Load()
		if last == 0 || f.now().Sub(time.Unix(0, last)) >= quiet {
			return
		}
		time.Sleep(quiet / 4)
	}
}

// close ends the route's input when the connection ends: the route
// decodes what it holds and closes Words, and the pump takes the rest.
func (f *frames) close() {
	f.closing.Store(true)
	f.stream.Close()
}

// drain ends the utterance in progress and waits until its words have
// been collected (take returns them), while the route gets on with what
// it holds (see await), at most until ctx ends. A route that cannot drain
// (a remote vendor ends utterances itself) is left alone.
//
// Once the connection has ended (close), a closed stream takes no drain,
// but it is hearing out its last words all the same: drain then waits for
// the pump's end. A recording ended from outside just after the app
// closed its socket (the app does both when the owner stops) would
// otherwise be processed without the words still being decoded.
func (f *frames) drain(ctx context.Context, idle time.Duration) error {
	f.drainMu.Lock()
	defer f.drainMu.Unlock()
	if f.closing.Load() {
		return f.heardOut(ctx, idle)
	}
	d, ok := f.stream.(stt.Drainer)
	if !ok {
		return nil
	}
	select { // a barrier left by a drain that gave up waiting
	case <-f.barrier:
	default:
	}
	if err := f.askDrain(ctx, d, idle); errors.Is(err, errIdle) {
		return nil
	} else if err != nil {
		if f.closing.Load() { // closed while this drain asked
			return f.heardOut(ctx, idle)
		}
		return err
	}
	return f.await(ctx, idle, f.barrier)
}

// askDrain asks the route to drain. A route whose queue has no room for
// the drain (stt.ErrDrainBusy: a slow recognizer with a full queue) is
// asked again as it gets through what it holds, for as long as it does
// (see await): giving up at once ended a recording from outside without
// the sentences still queued, which were said.
func (f *frames) askDrain(ctx context.Context, d stt.Drainer, idle time.Duration) error {
	p := f.progress()
	retry := time.NewTicker(drainRetry)
	defer retry.Stop()
	for {
		err := d.Drain()
		if !errors.Is(err, stt.ErrDrainBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-f.pumpDone:
			return err
		case <-retry.C:
		}
		if f.closing.Load() || p.stalled(idle) {
			return err
		}
	}
}

// drainRetry is how often a drain that found the route's queue full asks
// again: a local route takes an utterance off its queue every few hundred
// milliseconds on a busy machine.
const drainRetry = 50 * time.Millisecond

// errStalled: the route gave no words and took nothing from its backlog
// for the wait's idle time.
var errStalled = errors.New("the speech route stopped getting through what it holds")

// await waits for done or the pump's end for as long as the route gets on
// with what it holds: a batch of words comes or its backlog shrinks at
// least once every idle; at most until ctx ends. A fixed bound lost a
// busy machine's last sentences: with a twentieth of a core, a recognizer
// takes a minute for four short ones still queued.
func (f *frames) await(ctx context.Context, idle time.Duration, done <-chan struct{}) error {
	p := f.progress()
	tick := time.NewTicker(max(min(idle/4, time.Second), time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-done:
			return nil
		case <-f.pumpDone: // the route ended: the pump took all it gave
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if p.stalled(idle) {
				return errStalled
			}
		}
	}
}

// progress follows whether the route gets through what it holds: a
// batch of words comes or its backlog (stt.Backlogged) shrinks.
type progress struct {
	f       *frames
	backlog func() int
	batches int64
	queued  int
	moved   time.Time
}

func (f *frames) progress() *progress {
	backlog := func() int { return 0 }
	if b, ok := f.stream.(stt.Backlogged); ok {
		backlog = b.Backlog
	}
	return &progress{f: f, backlog: backlog, batches: f.batches.Load(), queued: backlog(), moved: time.Now()}
}

// stalled looks again, and is true once the route has not got on for
// idle.
func (p *progress) stalled(idle time.Duration) bool {
	if n, q := p.f.batches.Load(), p.backlog(); n != p.batches || q < p.queued {
		p.moved = time.Now()
		p.batches, p.queued = n, q
	} else if q > p.queued {
		p.queued = q
	}
	return time.Since(p.moved) >= idle
}

// awaitPump waits, once the connection has ended, until the pump has
// taken the route's last words, while the route gets on with them (see
// await), at most most in all. False when it gave up.
func (f *frames) awaitPump(idle, most time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), most)
	defer cancel()
	return f.await(ctx, idle, f.pumpDone) == nil
}

// heardOut waits until the pump has taken the closed route's last words.
func (f *frames) heardOut(ctx context.Context, idle time.Duration) error {
	return f.await(ctx, idle, f.pumpDone)
}
