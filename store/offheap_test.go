package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestScopeBitsGrowOutsideTheHeap: a scope's bits grow past their first
// mapping and keep every vector, as the heap's append would.
func TestScopeBitsGrowOutsideTheHeap(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	const dims = 64
	s := &scopeBits{dims: dims}
	var want []uint64
	for range 40_000 { // two growths past the first 16k words
		b := make([]byte, dims/8)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		s.appendBits(b)
		want = appendWords(want, b, dims)
	}
	if !slices.Equal(s.words, want) {
		t.Fatal("the bits differ from the heap's copy after growing")
	}
	if s.mapped != (runtime.GOOS != "windows" && runtime.GOOS != "js" && runtime.GOOS != "wasip1") {
		t.Errorf("mapped outside the heap: %v on %s", s.mapped, runtime.GOOS)
	}
	s.free()
	if s.words != nil || s.mapped {
		t.Error("free left words behind")
	}
}

// TestKNN_SearchesWhileScopesReload: searches run while writes add
// vectors and deletions make the scope reload (freeing the copy it
// replaces); under -race, and without a fault from reading freed words.
func TestKNN_SearchesWhileScopesReload(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateUser(ctx, &appliance.User{ID: "u1", Name: "u1", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	const dims = 64
	if _, err := db.UseEmbeddingModel(ctx, "rand", dims); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(11, 12))
	vec := func() []float32 {
		mu.Lock()
		defer mu.Unlock()
		v := make([]float32, dims)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	write := func(i int) {
		now := time.Now()
		m := &appliance.Memory{ID: fmt.Sprintf("m%04d", i), UserID: "u1", Content: fmt.Sprintf("memory %d", i), Category: "system", CreatedAt: now, UpdatedAt: now}
		if err := db.CreateMemories(ctx, []*appliance.Memory{m}); err != nil {
			t.Error(err)
			return
		}
		docs, err := db.PendingDocs(ctx, "rand", 100)
		if err != nil {
			t.Error(err)
			return
		}
		vs := make([][]float32, len(docs))
		for j := range docs {
			vs[j] = vec()
		}
		if err := db.PutVectors(ctx, "rand", docs, vs); err != nil {
			t.Error(err)
		}
	}
	for i := range 40 {
		write(i)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := db.knnRefined(ctx, dims, "u1\x1fmemory", vec(), 10); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for i := 40; i < 140; i++ {
		write(i)
		if i%5 == 0 { // a removal: the next search reloads the scope
			if err := db.DeleteMemory(ctx, "u1", fmt.Sprintf("m%04d", i-30)); err != nil {
				t.Error(err)
			}
		}
	}
	close(stop)
	wg.Wait()
	got, err := db.knnRefined(ctx, dims, "u1\x1fmemory", vec(), 200)
	if err != nil || len(got) != 120 {
		t.Fatalf("after the writes: %d documents (%v), want 120", len(got), err)
	}
}
