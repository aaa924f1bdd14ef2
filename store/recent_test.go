package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

func mustKey(tb testing.TB, db *store.DB, id, user, hash string) {
	tb.Helper()
	k := &appliance.Key{ID: id, UserID: user, Kind: appliance.KeyKindDev, Name: id, Hash: hash,
		Display: "hearth_dev_x", Scopes: []string{appliance.ScopeConversationsRead}, CreatedAt: time.Now()}
	if err := db.CreateKey(context.Background(), k); err != nil {
		tb.Fatal(err)
	}
}

func TestKeyCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("CallersDoNotShareTheCachedKey", func(t *testing.T) {
		t.Parallel()
		db := MustOpenDB(t)
		mustUser(t, db, "u1")
		mustKey(t, db, "k1", "u1", "h1")
		first, err := db.KeyByHash(ctx, "h1")
		if err != nil {
			t.Fatal(err)
		}
		first.Scopes[0] = "everything"
		first.UserID = "someone"
		again, err := db.KeyByHash(ctx, "h1")
		if err != nil {
			t.Fatal(err)
		}
		if again.Scopes[0] != appliance.ScopeConversationsRead || again.UserID != "u1" {
			t.Fatalf("a caller's change leaked into the cache: %+v", again)
		}
	})

	t.Run("MissIsNotKept", func(t *testing.T) {
		t.Parallel()
		db := MustOpenDB(t)
		mustUser(t, db, "u1")
		if _, err := db.KeyByHash(ctx, "h2"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
			t.Fatalf("err = %v, want not found", err)
		}
		mustKey(t, db, "k2", "u1", "h2")
		if _, err := db.KeyByHash(ctx, "h2"); err != nil {
			t.Fatalf("a key created after a miss: %v", err)
		}
	})

	// Another process on the same file (`hearth keys revoke` or `hearth
	// users` while the server runs) is seen on the next lookup.
	t.Run("ChangesByAnotherProcessSeenAtOnce", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		server, err := store.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer server.Close()
		mustUser(t, server, "u1")
		mustUser(t, server, "u2")
		mustKey(t, server, "k1", "u1", "h1")
		mustKey(t, server, "k2", "u2", "h2")
		for range 2 { // the second answer comes from memory
			if k, err := server.KeyByHash(ctx, "h1"); err != nil || k.RevokedAt != nil {
				t.Fatalf("before: %+v, %v", k, err)
			}
			if _, err := server.KeyByHash(ctx, "h2"); err != nil {
				t.Fatal(err)
			}
			if _, err := server.User(ctx, "u2"); err != nil {
				t.Fatal(err)
			}
		}
		cli, err := store.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := cli.RevokeKey(ctx, "u1", "k1", time.Now()); err != nil {
			t.Fatal(err)
		}
		if k, err := server.KeyByHash(ctx, "h1"); err != nil || k.RevokedAt == nil {
			t.Fatalf("after another process revoked the key: %+v, %v", k, err)
		}
		for range 2 { // warm again: a second signal replaces the first
			if _, err := server.KeyByHash(ctx, "h2"); err != nil {
				t.Fatal(err)
			}
			if _, err := server.User(ctx, "u2"); err != nil {
				t.Fatal(err)
			}
		}
		if err := cli.DeleteUser(ctx, "u2"); err != nil {
			t.Fatal(err)
		}
		cli.Close()
		if k, err := server.KeyByHash(ctx, "h2"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
			t.Fatalf("key of a user another process removed: %+v, %v", k, err)
		}
		if u, err := server.User(ctx, "u2"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
			t.Fatalf("user another process removed: %+v, %v", u, err)
		}
	})

	// Should the signal be lost, a cached copy still expires.
	t.Run("CachedCopyExpires", func(t *testing.T) {
		t.Parallel()
		db := MustOpenDB(t)
		var now atomic.Int64
		now.Store(time.Now().UnixNano())
		db.SetKeyClock(func() time.Time { return time.Unix(0, now.Load()) })
		mustUser(t, db, "u1")
		mustKey(t, db, "k1", "u1", "h1")
		if _, err := db.KeyByHash(ctx, "h1"); err != nil {
			t.Fatal(err)
		}
		if err := db.ExecRaw(ctx, "UPDATE api_keys SET name = 'renamed' WHERE id = 'k1'"); err != nil {
			t.Fatal(err)
		}
		if k, _ := db.KeyByHash(ctx, "h1"); k.Name != "k1" {
			t.Fatalf("within the TTL the cached copy answers: name %q", k.Name)
		}
		now.Add(int64(store.KeyCacheTTL))
		if k, _ := db.KeyByHash(ctx, "h1"); k.Name != "renamed" {
			t.Fatalf("after the TTL: name %q, want the row's", k.Name)
		}
	})

	// Lookups racing a revoke: once RevokeKey has returned, no lookup may
	// answer with the key unrevoked, whatever a concurrent read had begun.
	t.Run("RevokeWinsOverConcurrentReads", func(t *testing.T) {
		t.Parallel()
		db := MustOpenDB(t)
		mustUser(t, db, "u1")
		for round := range 20 {
			id, hash := "k"+string(rune('a'+round)), "h"+string(rune('a'+round))
			mustKey(t, db, id, "u1", hash)
			var revoked atomic.Bool
			var wg sync.WaitGroup
			errs := make(chan string, 4)
			for range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < 200; i++ {
						after := revoked.Load()
						k, err := db.KeyByHash(ctx, hash)
						if err != nil {
							errs <- err.Error()
							return
						}
						if after && k.RevokedAt == nil {
							errs <- "key answered unrevoked after RevokeKey returned"
							return
						}
					}
				}()
			}
			time.Sleep(time.Millisecond)
			if err := db.RevokeKey(ctx, "u1", id, time.Now()); err != nil {
				t.Fatal(err)
			}
			revoked.Store(true)
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Fatalf("round %d: %s", round, e)
			}
		}
	})
}

// A user's removal is seen at once, and a caller's change to the user it
// got stays its own.
func TestUserCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	first, err := db.User(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	first.Name = "someone else"
	again, err := db.User(ctx, "u1")
	if err != nil || again.Name != "User u1" {
		t.Fatalf("user = %+v, %v: a caller's change leaked into the cache", again, err)
	}
	if err := db.DeleteUser(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if u, err := db.User(ctx, "u1"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatalf("removed user still answered: %+v, %v", u, err)
	}
}

// BenchmarkKeyByHashCached is a key's lookup answered from memory, the
// credentials signal read included: in a folder where a key was revoked
// (the signal written) and in one never signalled, the usual case.
func BenchmarkKeyByHashCached(b *testing.B) {
	for _, signalled := range []bool{true, false} {
		name := "NeverSignalled"
		if signalled {
			name = "Signalled"
		}
		b.Run(name, func(b *testing.B) {
			db, err := store.Open(context.Background(), b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			mustUser(b, db, "u1")
			mustKey(b, db, "k1", "u1", "h1")
			if signalled {
				mustKey(b, db, "k2", "u1", "h2")
				if err := db.RevokeKey(context.Background(), "u1", "k2", time.Now()); err != nil {
					b.Fatal(err)
				}
			}
			ctx := context.Background()
			for b.Loop() {
				if _, err := db.KeyByHash(ctx, "h1"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
