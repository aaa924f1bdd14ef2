package store

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestKNN_MatchesSqliteVec: the Go KNN reads sqlite-vec's private chunk
// layout; it must find what vec0's own MATCH finds, in the same order of
// distance, over several chunks (more than 1024 vectors), with deleted
// vectors (validity bits) and two partitions.
func TestKNN_MatchesSqliteVec(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, u := range []string{"u1", "u2"} {
		if err := db.CreateUser(ctx, &appliance.User{ID: u, Name: u, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	const dims = 64
	if _, err := db.UseEmbeddingModel(ctx, "rand", dims); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	vec := func() []float32 {
		v := make([]float32, dims)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	now := time.Now()
	var ms []*appliance.Memory
	for i := range 2500 {
		ms = append(ms, &appliance.Memory{ID: fmt.Sprintf("m%04d", i), UserID: []string{"u1", "u2"}[i%5/4], Content: fmt.Sprintf("memory %d", i),
			Category: "system", CreatedAt: now, UpdatedAt: now})
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	for {
		docs, err := db.PendingDocs(ctx, "rand", 500)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) == 0 {
			break
		}
		vs := make([][]float32, len(docs))
		for i := range vs {
			vs[i] = vec()
		}
		if err := db.PutVectors(ctx, "rand", docs, vs); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 2500; i += 7 {
		if err := db.DeleteMemory(ctx, ms[i].UserID, ms[i].ID); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		q := vec()
		qb := quantize(q)
		if got, err := db.QueryString(ctx, fmt.Sprintf(`SELECT hex(vec_quantize_binary(X'%x'))`, encodeVector(q))); err != nil || got != fmt.Sprintf("%X", qb) {
			t.Fatalf("quantize %X, vec_quantize_binary %s (%v)", qb, got, err)
		}
		for _, scope := range []string{"u1\x1fmemory", "u2\x1fmemory"} {
			const k = 40
			got, err := db.knn(ctx, dims, scope, qb, k)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := db.reader.QueryContext(ctx, `SELECT doc_id, distance FROM `+bqTable(dims)+`
				WHERE embedding MATCH vec_quantize_binary(?) AND k = ? AND scope = ? ORDER BY distance`, encodeVector(q), k, scope)
			if err != nil {
				t.Fatal(err)
			}
			var want []int64
			var wantDist, gotDist []int
			for rows.Next() {
				var id int64
				var d float64
				rows.Scan(&id, &d)
				want = append(want, id)
				wantDist = append(wantDist, int(d))
			}
			rows.Close()
			for _, id := range got {
				var b []byte
				if err := db.reader.QueryRowContext(ctx, `SELECT vec_quantize_binary(embedding) FROM search_vectors WHERE doc_id = ?`, id).Scan(&b); err != nil {
					t.Fatalf("knn returned doc %d without a vector: %v", id, err)
				}
				gotDist = append(gotDist, hamming(b, qb))
			}
			// Ties at the k-th distance may be broken differently; the
			// distances must agree, and so must the ids below the last tie.
			if !slices.Equal(gotDist, wantDist) {
				t.Fatalf("%q: distances %v, sqlite-vec %v", scope, gotDist, wantDist)
			}
			last := wantDist[len(wantDist)-1]
			for i := range got {
				if wantDist[i] < last && !slices.Contains(want, got[i]) {
					t.Fatalf("%q: doc %d at distance %d not in sqlite-vec's answer %v", scope, got[i], gotDist[i], want)
				}
			}

			// The refined KNN: each scope here is smaller than the Hamming
			// shortlist, so it must rank every live document exactly by the
			// asymmetric score, computed here directly from their vectors.
			refined, err := db.knnRefined(ctx, dims, scope, q, k)
			if err != nil {
				t.Fatal(err)
			}
			type cand struct {
				id    int64
				score float64
			}
			var all []cand
			rows, err = db.reader.QueryContext(ctx, `SELECT v.doc_id, vec_quantize_binary(v.embedding) FROM search_vectors v
				JOIN `+bqTable(dims)+` b ON b.doc_id = v.doc_id WHERE b.scope = ?`, scope)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id int64
				var bits []byte
				rows.Scan(&id, &bits)
				var sc float64
				for i, x := range q {
					if bits[i/8]>>(i%8)&1 == 1 {
						sc += float64(x)
					}
				}
				all = append(all, cand{id, sc})
			}
			rows.Close()
			slices.SortFunc(all, func(a, b cand) int {
				if a.score != b.score {
					if a.score > b.score {
						return -1
					}
					return 1
				}
				return int(a.id - b.id)
			})
			if len(refined) != k {
				t.Fatalf("%q: refined KNN gave %d, want %d", scope, len(refined), k)
			}
			for i := range refined {
				if refined[i] != all[i].id && math.Abs(all[i].score-all[slices.IndexFunc(all, func(c cand) bool { return c.id == refined[i] })].score) > 1e-4 {
					t.Fatalf("%q: refined rank %d is doc %d, the asymmetric score puts doc %d there", scope, i, refined[i], all[i].id)
				}
			}
		}
	}
}

// TestByteTables: each table entry is the sum of the query over the bits
// set in that byte value, including the dimensions past the last one.
func TestByteTables(t *testing.T) {
	t.Parallel()
	q := []float32{1, 2, 4, 8, 16, 32, 64, 128, 0.5, -3}
	tab := byteTables(nil, q, 2)
	for _, c := range []struct {
		j, b int
		want float32
	}{{0, 0, 0}, {0, 1, 1}, {0, 0b1010, 10}, {0, 255, 255}, {1, 1, 0.5}, {1, 0b11, -2.5}, {1, 0b111, -2.5}, {1, 255, -2.5}} {
		if got := tab[c.j*256+c.b]; got != c.want {
			t.Errorf("byte %d value %08b: %v, want %v", c.j, c.b, got, c.want)
		}
	}
}

// TestKNN_FollowsWrites: the in-memory sign bits see a vector stored after
// they were loaded (without reloading), never offer a removed document,
// and use a re-embedded document's new vector.
func TestKNN_FollowsWrites(t *testing.T) {
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
	r := rand.New(rand.NewPCG(3, 4))
	vec := func() []float32 {
		v := make([]float32, dims)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	// embed gives every pending document a vector: want's for the one
	// whose text is given, random ones for the rest.
	embed := func(text string, want []float32) {
		t.Helper()
		docs, err := db.PendingDocs(ctx, "rand", 500)
		if err != nil {
			t.Fatal(err)
		}
		vs := make([][]float32, len(docs))
		for i, d := range docs {
			if vs[i] = vec(); d.Text == text {
				vs[i] = want
			}
		}
		if err := db.PutVectors(ctx, "rand", docs, vs); err != nil {
			t.Fatal(err)
		}
	}
	nearest := func(q []float32) int64 {
		t.Helper()
		got, err := db.knn(ctx, dims, "u1\x1fmemory", quantize(q), 1)
		if err != nil || len(got) != 1 {
			t.Fatalf("knn: %v, %v", got, err)
		}
		return got[0]
	}
	docOf := func(id string) int64 {
		t.Helper()
		var doc int64
		if err := db.reader.QueryRowContext(ctx, `SELECT doc_id FROM search_docs WHERE kind = 'memory' AND item_id = ?`, id).Scan(&doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	now := time.Now()
	var ms []*appliance.Memory
	for i := range 50 {
		ms = append(ms, &appliance.Memory{ID: fmt.Sprintf("m%02d", i), UserID: "u1", Content: fmt.Sprintf("memory %d", i), Category: "system", CreatedAt: now, UpdatedAt: now})
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	embed("", nil)
	nearest(vec()) // loads the scope
	loaded := db.bits.scopes[db.bits.key(dims, "u1\x1fmemory")].loadedAt

	q := vec()
	fresh := &appliance.Memory{ID: "fresh", UserID: "u1", Content: "a fresh memory", Category: "system", CreatedAt: now, UpdatedAt: now}
	if err := db.CreateMemories(ctx, []*appliance.Memory{fresh}); err != nil {
		t.Fatal(err)
	}
	embed("a fresh memory", q)
	if got := nearest(q); got != docOf("fresh") {
		t.Fatalf("nearest to the fresh memory's own vector: doc %d, want %d", got, docOf("fresh"))
	}
	if s := db.bits.scopes[db.bits.key(dims, "u1\x1fmemory")]; !s.loadedAt.Equal(loaded) {
		t.Error("the scope was reloaded to see one new vector")
	}

	freshDoc := docOf("fresh")
	if err := db.DeleteMemory(ctx, "u1", "fresh"); err != nil {
		t.Fatal(err)
	}
	if got := nearest(q); got == freshDoc {
		t.Fatal("a deleted memory is still a KNN candidate")
	}

	q2 := vec()
	m := ms[7]
	m.Content, m.UpdatedAt = "memory seven, edited", time.Now()
	if err := db.UpdateMemory(ctx, m); err != nil {
		t.Fatal(err)
	}
	embed("memory seven, edited", q2)
	if got := nearest(q2); got != docOf("m07") {
		t.Fatalf("nearest to the edited memory's new vector: doc %d, want %d", got, docOf("m07"))
	}
}
