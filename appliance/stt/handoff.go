package stt

import (
	"cmp"
	"context"
	"errors"
	"math"
	"sync"
	"time"
)

// A live stream on a route whose model turns out to hear nothing fails
// with ErrHearsNothing. Until a word has come, nothing is lost by giving
// the session to the next route instead: the audio sent so far is kept,
// and replayed into it. Once a word has come, a failure is the session's,
// reported like any other.

// handoffKeep bounds the audio kept for a replay (10 minutes, 19 MB):
// past it, the stream is no longer handed over.
const handoffKeep = 10 * 60 * SampleRate

// replayPiece is how much kept audio goes to the next route before the
// replay waits for it to be heard: less than a local route queues (10 s),
// so that a replay never overruns it.
const replayPiece = 6 * SampleRate

type handoffStream struct {
	r    *Router
	ctx  context.Context
	cfg  Config
	out  chan []Word
	fake chan struct{} // barriers owed by a route that cannot drain

	mu        sync.Mutex
	cur       Stream
	from      string
	rest      []StreamingProvider
	kept      []int16 // every sample sent, while no word has come
	keeping   bool
	replaying bool
	heard     bool
	handed    bool // the stream is on another route than it opened on
	drains    int  // Drain calls whose barrier has not come out yet
	closed    bool
	err       error
}

// Unproven is a provider whose model has yet to yield a word: only such a
// route can still be found to hear nothing.
type Unproven interface {
	Unproven() bool
}

// HandsOverUnheard is a stream on an unproven route that, asked to, also
// fails with ErrHearsNothing when it drains or ends having heard no word
// on speech: a session too short for its route to be judged deaf (a
// single utterance on a fresh server) is still handed to the next route,
// its words in the recording before it is processed.
type HandsOverUnheard interface {
	HandOverUnheard(on bool)
}

// handoff wraps s, opened on p, so that it can be handed to the next of
// rest that serves cfg. Only a route still unproven fails this way; other
// streams are returned as they are.
func (r *Router) handoff(ctx context.Context, cfg Config, s Stream, p StreamingProvider, rest []StreamingProvider) Stream {
	if u, ok := p.(Unproven); !ok || !u.Unproven() {
		return s
	}
	var next []StreamingProvider
	for _, q := range rest {
		if q.Supports(cfg.Language, cfg.Channels) {
			next = append(next, q)
		}
	}
	if len(next) == 0 {
		return s
	}
	h := &handoffStream{r: r, ctx: context.WithoutCancel(ctx), cfg: cfg, out: make(chan []Word, 16), fake: make(chan struct{}, 16),
		cur: s, from: p.Name(), rest: next, keeping: true}
	if u, ok := s.(HandsOverUnheard); ok {
		u.HandOverUnheard(true)
	}
	go h.pump()
	return h
}

// canHand reports whether err ends the current stream in a way the next
// route can take over from. The caller holds mu.
func (h *handoffStream) canHand(err error) bool {
	return errors.Is(err, ErrHearsNothing) && !h.heard && h.keeping && len(h.rest) > 0
}

func (h *handoffStream) Send(pcm []int16) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.keeping {
		if len(h.kept)+len(pcm) > handoffKeep && !h.replaying {
			h.keeping, h.kept = false, nil
			h.handUnheard(false)
		} else {
			h.kept = append(h.kept, pcm...)
		}
	}
	if h.replaying {
		return nil // the replay sends it, in order
	}
	err := h.cur.Send(pcm)
	if err != nil && h.canHand(err) {
		h.cur.Close() // a failed local stream ends when closed
		return nil    // kept: the next route hears it
	}
	return err
}

func (h *handoffStream) Drain() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.replaying {
		h.drains++ // drained once the replay is done
		return nil
	}
	d, ok := h.cur.(Drainer)
	if !ok {
		select {
		case h.fake <- struct{}{}:
			return nil
		default:
			return ErrDrainBusy
		}
	}
	err := d.Drain()
	if err != nil && h.canHand(err) {
		h.cur.Close()
	}
	if err == nil || h.canHand(err) {
		h.drains++
		return nil
	}
	return err
}

func (h *handoffStream) Words() <-chan []Word { return h.out }

// Backlog implements Backlogged for the route the stream is on now.
func (h *handoffStream) Backlog() int {
	h.mu.Lock()
	cur := h.cur
	h.mu.Unlock()
	if b, ok := cur.(Backlogged); ok {
		return b.Backlog()
	}
	return 0
}

func (h *handoffStream) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}

func (h *handoffStream) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	if h.replaying {
		return nil // closed once the replay is done
	}
	return h.cur.Close()
}

// pump forwards the current stream's words; when that stream fails in a
// way the next route can take over from, it opens the next one and
// replays the kept audio into it.
func (h *handoffStream) pump() {
	defer close(h.out)
	for {
		h.mu.Lock()
		cur := h.cur
		h.mu.Unlock()
		h.forward(cur)
		err := cur.Err()
		h.mu.Lock()
		if !h.canHand(err) {
			h.err = err
			h.mu.Unlock()
			return
		}
		next, name := h.next()
		if next == nil {
			h.err = err
			h.mu.Unlock()
			return
		}
		h.r.log.Warn("speech route heard no words: the session goes on with the next route, from its start",
			"provider", h.from, "next", name, "replayed_s", math.Round(float64(len(h.kept))/SampleRate))
		h.cur, h.from, h.replaying, h.handed = next, name, true, true
		h.mu.Unlock()
		cur.Close() // a stream that failed at a drain still holds its queue
		if !h.replay(next) {
			next.Close()
			for range next.Words() {
			}
			h.mu.Lock()
			h.err = cmp.Or(next.Err(), error(&Error{Outcome: UpstreamError, Provider: name, Reason: "handover_failed",
				Err: errors.New("the next route ended while the session's audio was replayed into it")}))
			h.mu.Unlock()
			return
		}
	}
}

// handUnheard tells the current stream whether it may still be handed
// over when it ends unheard. The caller holds mu.
func (h *handoffStream) handUnheard(on bool) {
	if u, ok := h.cur.(HandsOverUnheard); ok {
		u.HandOverUnheard(on)
	}
}

// forward passes s's words on until s ends.
func (h *handoffStream) forward(s Stream) {
	in := s.Words()
	for {
		select {
		case ws, ok := <-in:
			if !ok {
				return
			}
			h.mu.Lock()
			if len(ws) > 0 {
				h.heard, h.keeping, h.kept = true, false, nil
				h.handUnheard(false)
			} else if h.drains > 0 {
				h.drains--
			}
			ws = h.stamp(ws)
			h.mu.Unlock()
			h.out <- ws
		case <-h.fake:
			h.out <- []Word{}
		}
	}
}

// stamp names the route that heard ws on each word, once the stream has
// been handed over (before, they are the stream's own). The caller holds
// mu.
func (h *handoffStream) stamp(ws []Word) []Word {
	if !h.handed {
		return ws
	}
	for i := range ws {
		if ws[i].Provider == "" {
			ws[i].Provider = h.from
		}
	}
	return ws
}

// next opens the first of the remaining routes that will. The caller
// holds mu.
func (h *handoffStream) next() (Stream, string) {
	for len(h.rest) > 0 {
		p := h.rest[0]
		h.rest = h.rest[1:]
		if unusable(p) != nil {
			continue
		}
		s, err := p.Open(h.ctx, h.cfg)
		if err != nil {
			h.r.log.Warn("speech route did not open", "provider", p.Name(), "err", err)
			continue
		}
		return s, p.Name()
	}
	return nil, ""
}

// replay sends the kept audio to s piece by piece, each piece drained and
// heard out before the next (the route's queue is bounded), passing its
// words on; then the session's own drains and close. It reports false if
// s ended meanwhile.
func (h *handoffStream) replay(s Stream) bool {
	d, canDrain := s.(Drainer)
	sent := 0
	for {
		h.mu.Lock()
		if sent == len(h.kept) {
			drains, closed := h.drains, h.closed
			h.replaying = false
			h.kept, h.keeping = nil, false // one hand-over per session
			h.mu.Unlock()
			for range drains {
				if canDrain {
					d.Drain()
				} else {
					h.fake <- struct{}{}
				}
			}
			if closed {
				s.Close()
			}
			return true
		}
		piece := h.kept[sent:min(len(h.kept), sent+cutAt(h.kept[sent:]))]
		h.mu.Unlock()
		if err := s.Send(piece); err != nil {
			return false
		}
		sent += len(piece)
		if !canDrain {
			continue
		}
		for err := d.Drain(); err != nil; err = d.Drain() {
			if !errors.Is(err, ErrDrainBusy) {
				return false
			}
			time.Sleep(50 * time.Millisecond) // the piece is still queued
		}
		for ws := range s.Words() { // up to the barrier
			if len(ws) == 0 {
				break
			}
			h.mu.Lock()
			h.heard = true
			ws = h.stamp(ws)
			h.mu.Unlock()
			h.out <- ws
		}
	}
}

// cutAt is where the next replayed piece of pcm ends: at most
// replayPiece, at the quietest 20 ms of its last 2 s so that a word is
// rarely cut in two.
func cutAt(pcm []int16) int {
	if len(pcm) <= replayPiece {
		return len(pcm)
	}
	const frame = SampleRate / 50
	best, bestAt := math.Inf(1), replayPiece
	for at := replayPiece - 2*SampleRate; at+frame <= replayPiece; at += frame {
		var sum float64
		for _, v := range pcm[at : at+frame] {
			sum += float64(v) * float64(v)
		}
		if sum < best {
			best, bestAt = sum, at+frame
		}
	}
	return bestAt
}
