package main

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/store"
)

// storeGate holds every request but /healthz until the store is ready. A
// restart whose database the file's header shows current (store.Current)
// serves before the store's connections open: each loads the whole schema
// (about a millisecond), and the writer's also checks the migrations and
// refreshes planner statistics — the longest part of a restart after
// main. /healthz answers meanwhile (the store is verified: a database,
// Hearth's, its migrations current; the search index reports itself
// starting), anything else waits the few milliseconds, or answers 503 if
// the store failed, in which case the start fails too.
//
// It also says when to start that work (asked): once /healthz has been
// answered, or at once when a request waits for it (Run starts it anyway
// after storeAskedWithin). Started with the listener, the store's few
// milliseconds of SQLite work shared the two cores with the first answer:
// side by side at load ~13, a restart's median to the first 200 was 1–2 ms
// longer that way.
type storeGate struct {
	next    http.Handler
	done    chan struct{}
	err     error
	askOnce sync.Once
	asked   chan struct{}
}

func newStoreGate(next http.Handler) *storeGate {
	return &storeGate{next: next, done: make(chan struct{}), asked: make(chan struct{})}
}

func (g *storeGate) ask() { g.askOnce.Do(func() { close(g.asked) }) }

// awaitAsked waits until the store is asked for, or d has passed.
func (g *storeGate) awaitAsked(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-g.asked:
	case <-t.C:
	}
}

// open lets the waiting requests through, or answers them 503 when err is
// not nil; call it once.
func (g *storeGate) open(err error) {
	g.err = err
	close(g.done)
}

func (g *storeGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/healthz" {
		g.next.ServeHTTP(w, r)
		g.ask()
		return
	}
	select {
	case <-g.done:
	default:
		g.ask()
		select {
		case <-g.done:
		case <-r.Context().Done():
			return
		}
	}
	if g.err != nil {
		http.Error(w, "the store could not be opened; see the appliance's log", http.StatusServiceUnavailable)
		return
	}
	g.next.ServeHTTP(w, r)
}

// storeReady runs db.Ready once, on another goroutine, from start or the
// first wait.
type storeReady struct {
	ctx  context.Context
	db   *store.DB
	once sync.Once
	done chan struct{}
	err  error
}

func newStoreReady(ctx context.Context, db *store.DB) *storeReady {
	return &storeReady{ctx: ctx, db: db, done: make(chan struct{})}
}

// start runs Ready in the background.
func (s *storeReady) start() {
	s.once.Do(func() {
		go func() {
			defer close(s.done)
			s.err = s.db.Ready(s.ctx)
		}()
	})
}

// wait starts Ready if nothing has and says how it ended.
func (s *storeReady) wait() error {
	s.start()
	<-s.done
	return s.err
}

// settle is for a start that fails: it waits for a Ready under way (Close
// must not close the pools under it) and keeps one from starting.
func (s *storeReady) settle() {
	s.once.Do(func() {
		s.err = errors.New("the start failed before the store was made ready")
		close(s.done)
	})
	<-s.done
}
