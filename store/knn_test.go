package store

import (
	"context"
	"fmt"
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
		}
	}
}
