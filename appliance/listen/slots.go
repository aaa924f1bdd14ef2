package listen

import (
	"context"
	"fmt"
	"sync"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Owner names the household's owner ("" while nobody has claimed the
// appliance).
type Owner interface {
	Owner(ctx context.Context) (string, error)
}

// streamSlots counts the speech-route streams each user holds, so that
// one account's sessions cannot take every stream the box runs: past the
// cap, a user's next stream is refused; and on the route with a bound
// (PocketSphinx), the other users together leave its last stream to the
// owner. The owner is never refused, so that nobody else's sessions
// starve theirs.
type streamSlots struct {
	cap    int    // per user; 0: no cap
	route  string // the bounded route's name
	total  int    // its streams; 0: unknown
	owner  Owner
	mu     sync.Mutex
	held   map[string]int
	others int // streams on route held by users other than the owner
}

// streamsRefusal is the close reason (1008) of a session refused a stream.
func streamsRefusal(n int) string {
	return fmt.Sprintf("Too many live sessions: this account already streams speech in %d, the limit per user", n)
}

// reservedRefusal is the close reason (1008) when every stream of the
// bounded route but the owner's is taken.
const reservedRefusal = "Every speech stream is in use (the last is kept for the owner): try again later"

// slot is one stream a user holds.
type slot struct {
	t       *streamSlots
	user    string
	owner   bool
	onRoute bool
	once    sync.Once
}

// take holds a stream for user, within the per-user cap.
func (t *streamSlots) take(ctx context.Context, user string) (*slot, error) {
	sl := &slot{t: t, user: user}
	if t.cap > 0 || t.total > 1 {
		sl.owner = t.isOwner(ctx, user)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := t.held[user]; !sl.owner && t.cap > 0 && n >= t.cap {
		return nil, &closeErr{code: websocket.ClosePolicyViolation, reason: streamsRefusal(n)}
	}
	t.held[user]++
	return sl, nil
}

// place counts the slot against the bounded route when provider is that
// route, refusing it when only the owner's stream is left.
func (sl *slot) place(provider string) error {
	t := sl.t
	if sl.owner || t.total <= 1 || provider != t.route {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.others >= t.total-1 {
		return &closeErr{code: websocket.ClosePolicyViolation, reason: reservedRefusal}
	}
	t.others++
	sl.onRoute = true
	return nil
}

// release gives the stream back (once).
func (sl *slot) release() {
	sl.once.Do(func() {
		t := sl.t
		t.mu.Lock()
		defer t.mu.Unlock()
		if sl.onRoute {
			t.others--
		}
		if t.held[sl.user]--; t.held[sl.user] <= 0 {
			delete(t.held, sl.user)
		}
	})
}

func (t *streamSlots) isOwner(ctx context.Context, user string) bool {
	if t.owner == nil {
		return false
	}
	id, err := t.owner.Owner(ctx)
	return err == nil && id != "" && id == user
}

// openRoute holds one of the user's stream slots and opens the speech
// route on it, as a slotStream: the slot is given back while the
// session's audio has stopped, and taken again on its next frame.
func (s *session) openRoute(ctx context.Context, cfg stt.Config) (stt.Stream, stt.Selection, error) {
	var ss *slotStream
	if to := cfg.Skipped; to != nil {
		cfg.Skipped = func(k stt.Skip) { ss.skipped(to)(k) }
	}
	open := func(ctx context.Context) (stt.Stream, stt.Selection, func(), error) {
		sl, err := s.srv.slots.take(ctx, s.user)
		if err != nil {
			return nil, stt.Selection{}, nil, err
		}
		stream, sel, err := s.router.Open(ctx, cfg)
		if err == nil {
			if err = sl.place(sel.Provider); err != nil {
				discard(stream)
			}
		}
		if err != nil {
			sl.release()
			return nil, sel, nil, err
		}
		return stream, sel, sl.release, nil
	}
	first, sel, release, err := open(ctx)
	if err != nil {
		return nil, sel, err
	}
	ss = newSlotStream(first, release, func() (stt.Stream, func(), error) {
		stream, _, release, err := open(context.Background())
		return stream, release, err
	})
	return ss, sel, nil
}

// discard closes a stream nobody will read.
func discard(stream stt.Stream) {
	go func() {
		for range stream.Words() {
		}
	}()
	stream.Close()
}
