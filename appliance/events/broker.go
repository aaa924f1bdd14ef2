// Package events is the appliance's in-process event stream: one publisher
// side, many bounded subscriptions, per user or for every user (in the
// spirit of benbjohnson/wtf's inmem.EventService). A slow subscriber never
// blocks a publisher: its buffer fills, and further events to it are dropped
// and counted.
package events

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// DefaultBuffer is a subscription's capacity: enough for a burst of
// segment batches from a live socket while a console tab catches up.
const DefaultBuffer = 256

// Broker implements appliance.EventPublisher and appliance.EventSubscriber.
type Broker struct {
	buffer int
	now    func() time.Time

	mu     sync.RWMutex
	byUser map[string]map[*subscription]struct{} // "" holds the every-user subscriptions
	closed bool
}

// NewBroker returns a broker whose subscriptions hold buffer events each
// (DefaultBuffer when buffer ≤ 0).
func NewBroker(buffer int) *Broker {
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	return &Broker{buffer: buffer, now: time.Now, byUser: map[string]map[*subscription]struct{}{}}
}

var (
	_ appliance.EventPublisher  = (*Broker)(nil)
	_ appliance.EventSubscriber = (*Broker)(nil)
)

// Publish delivers e to the subscriptions of e.UserID and to every-user
// subscriptions. An event without a user reaches only the latter.
func (b *Broker) Publish(e appliance.StreamEvent) {
	if e.At.IsZero() {
		e.At = b.now().UTC()
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return
	}
	for s := range b.byUser[""] {
		s.send(e)
	}
	if e.UserID != "" {
		for s := range b.byUser[e.UserID] {
			s.send(e)
		}
	}
}

// Subscribe implements appliance.EventSubscriber.
func (b *Broker) Subscribe(userID string) appliance.Subscription {
	s := &subscription{b: b, user: userID, ch: make(chan appliance.StreamEvent, b.buffer)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		close(s.ch)
		s.done = true
		return s
	}
	if b.byUser[userID] == nil {
		b.byUser[userID] = map[*subscription]struct{}{}
	}
	b.byUser[userID][s] = struct{}{}
	return s
}

// Close ends every subscription (their channels close) and drops later
// events. It is safe to call more than once.
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for _, subs := range b.byUser {
		for s := range subs {
			s.closeLocked()
		}
	}
	b.byUser = map[string]map[*subscription]struct{}{}
}

// Subscribers counts open subscriptions (for tests and the console).
func (b *Broker) Subscribers() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := 0
	for _, subs := range b.byUser {
		n += len(subs)
	}
	return n
}

type subscription struct {
	b       *Broker
	user    string
	ch      chan appliance.StreamEvent
	dropped atomic.Uint64
	done    bool // guarded by b.mu (write lock)
}

// send never blocks: a full buffer drops the event and counts it. It runs
// under the broker's read lock, which Close's write lock excludes, so the
// channel is never closed under it.
func (s *subscription) send(e appliance.StreamEvent) {
	select {
	case s.ch <- e:
	default:
		s.dropped.Add(1)
	}
}

func (s *subscription) C() <-chan appliance.StreamEvent { return s.ch }

func (s *subscription) Dropped() uint64 { return s.dropped.Load() }

func (s *subscription) Close() {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if s.done {
		return
	}
	delete(s.b.byUser[s.user], s)
	if len(s.b.byUser[s.user]) == 0 {
		delete(s.b.byUser, s.user)
	}
	s.closeLocked()
}

func (s *subscription) closeLocked() {
	if !s.done {
		s.done = true
		close(s.ch)
	}
}
