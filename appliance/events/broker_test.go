package events

import (
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

func recv(t *testing.T, s appliance.Subscription) appliance.StreamEvent {
	t.Helper()
	select {
	case e, ok := <-s.C():
		if !ok {
			t.Fatal("subscription closed")
		}
		return e
	case <-time.After(2 * time.Second):
		t.Fatal("no event")
	}
	return appliance.StreamEvent{}
}

func none(t *testing.T, s appliance.Subscription) {
	t.Helper()
	select {
	case e := <-s.C():
		t.Fatalf("unexpected event %+v", e)
	default:
	}
}

func TestBrokerRoutesByUser(t *testing.T) {
	t.Parallel()
	b := NewBroker(8)
	alice, bob, all := b.Subscribe("alice"), b.Subscribe("bob"), b.Subscribe("")
	defer alice.Close()
	defer bob.Close()
	defer all.Close()

	b.Publish(appliance.StreamEvent{Type: appliance.EventMemoryCreated, UserID: "alice"})
	if e := recv(t, alice); e.Type != appliance.EventMemoryCreated || e.UserID != "alice" || e.At.IsZero() {
		t.Fatalf("alice got %+v", e)
	}
	if e := recv(t, all); e.UserID != "alice" {
		t.Fatalf("every-user subscription got %+v", e)
	}
	none(t, bob)
}

func TestBrokerSlowSubscriberNeverBlocksAndCountsDrops(t *testing.T) {
	t.Parallel()
	b := NewBroker(4)
	slow := b.Subscribe("u")
	defer slow.Close()
	done := make(chan struct{})
	go func() {
		for range 100 {
			b.Publish(appliance.StreamEvent{Type: appliance.EventSegmentsAppended, UserID: "u"})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("publisher blocked on a slow subscriber")
	}
	if got := slow.Dropped(); got != 96 {
		t.Fatalf("dropped %d, want 96", got)
	}
	for range 4 {
		recv(t, slow)
	}
	none(t, slow)
}

func TestBrokerCloseEndsSubscriptions(t *testing.T) {
	t.Parallel()
	b := NewBroker(4)
	s := b.Subscribe("u")
	other := b.Subscribe("u")
	other.Close()
	other.Close() // twice is fine
	if n := b.Subscribers(); n != 1 {
		t.Fatalf("subscribers %d, want 1", n)
	}
	b.Close()
	if _, ok := <-s.C(); ok {
		t.Fatal("channel still open after Close")
	}
	s.Close()
	b.Publish(appliance.StreamEvent{UserID: "u"}) // no panic after close
	late := b.Subscribe("u")
	if _, ok := <-late.C(); ok {
		t.Fatal("subscription after Close is open")
	}
}

func TestBrokerConcurrentPublishSubscribeClose(t *testing.T) {
	t.Parallel()
	b := NewBroker(2)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 200 {
				b.Publish(appliance.StreamEvent{UserID: "u"})
			}
		}()
		go func() {
			defer wg.Done()
			for range 50 {
				s := b.Subscribe([]string{"u", ""}[i%2])
				s.Close()
			}
		}()
	}
	wg.Wait()
	b.Close()
	if n := b.Subscribers(); n != 0 {
		t.Fatalf("subscribers %d after close", n)
	}
}
