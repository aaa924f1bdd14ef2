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
// cap, a user's next stream is refused. The owner's never is, so that
// nobody else's sessions starve theirs.
type streamSlots struct {
	cap   int // 0: no cap
	owner Owner
	mu    sync.Mutex
	held  map[string]int
}

// streamsRefusal is the close reason (1008) of a session refused a stream.
func streamsRefusal(n int) string {
	return fmt.Sprintf("Too many live sessions: this account already streams speech in %d, the limit per user", n)
}

// take holds a stream for user; release gives it back (once).
func (t *streamSlots) take(ctx context.Context, user string) (release func(), err error) {
	t.mu.Lock()
	n := t.held[user]
	under := t.cap <= 0 || n < t.cap
	if under {
		t.held[user]++
	}
	t.mu.Unlock()
	if !under {
		if !t.isOwner(ctx, user) {
			return nil, &closeErr{code: websocket.ClosePolicyViolation, reason: streamsRefusal(n)}
		}
		t.mu.Lock()
		t.held[user]++
		t.mu.Unlock()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.held[user]--; t.held[user] <= 0 {
				delete(t.held, user)
			}
		})
	}, nil
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
		release, err := s.srv.slots.take(ctx, s.user)
		if err != nil {
			return nil, stt.Selection{}, nil, err
		}
		stream, sel, err := s.srv.d.Router.Open(ctx, cfg)
		if err != nil {
			release()
			return nil, sel, nil, err
		}
		return stream, sel, release, nil
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
