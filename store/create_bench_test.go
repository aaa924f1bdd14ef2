package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// benchConversation is what the built-in pipeline makes of a 12-segment
// transcript: a titled, categorised conversation with two action items, an
// event, and (stored separately) two memories.
func benchConversation(r *rand.Rand, n int, user string, now time.Time) (*appliance.Conversation, []*appliance.Memory) {
	id := fmt.Sprintf("c%07d", n)
	start, end := now.Add(-10*time.Minute), now
	segs := make([]appliance.TranscriptSegment, 12)
	for i := range segs {
		segs[i] = appliance.TranscriptSegment{ID: fmt.Sprintf("%s-s%02d", id, i), Text: benchText(r), Speaker: fmt.Sprintf("SPEAKER_%02d", i%2),
			SpeakerID: i % 2, IsUser: i%2 == 0, Start: float64(i * 5), End: float64(i*5 + 4), Translations: []appliance.Translation{},
			SpeechProfileProcessed: true}
	}
	c := &appliance.Conversation{
		ID: id, UserID: user, CreatedAt: now, UpdatedAt: now, StartedAt: &start, FinishedAt: &end,
		Source: appliance.SourcePhone, Language: "en", Status: appliance.StatusCompleted,
		Structured: appliance.Structured{Title: benchQuery(r), Overview: benchText(r) + ". " + benchText(r), Emoji: "💼",
			Category: "business", Events: []appliance.Event{{Title: "Sync", Start: end, Duration: 30}},
			ActionItems: []appliance.ActionItem{{ID: id + "-a1", Description: benchText(r)}, {ID: id + "-a2", Description: benchText(r)}}},
		TranscriptSegments: segs,
		ExternalData:       map[string]any{"conversation_role": "meeting"},
		Visibility:         appliance.VisibilityPrivate,
	}
	cid := id
	ms := []*appliance.Memory{
		{ID: id + "-m1", UserID: user, ConversationID: &cid, Content: benchText(r), Category: "interesting", CreatedAt: now, UpdatedAt: now},
		{ID: id + "-m2", UserID: user, ConversationID: &cid, Content: benchText(r), Category: "system", CreatedAt: now, UpdatedAt: now},
	}
	return c, ms
}

// vectorPool hands out precomputed unit vectors, so that the benchmarks
// measure the store and not the random number generator.
type vectorPool struct {
	vs [][]float32
	i  int
}

func newVectorPool(r *rand.Rand, dims int) *vectorPool {
	p := &vectorPool{}
	for range 512 {
		p.vs = append(p.vs, randomUnit(r, dims))
	}
	return p
}

func (p *vectorPool) take(n int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		out[i] = p.vs[p.i%len(p.vs)]
		p.i++
	}
	return out
}

const benchModel, benchDims = "bench-random-384", 384

// indexPending does what the background indexer does after a write: take
// the pending docs in batches, "embed" them and store their vectors, read
// the progress, and do the upkeep it does while idle.
func indexPending(tb testing.TB, db *store.DB, pool *vectorPool) int {
	ctx := context.Background()
	n := 0
	for {
		docs, err := db.PendingDocs(ctx, benchModel, 64)
		if err != nil {
			tb.Fatal(err)
		}
		if len(docs) == 0 {
			break
		}
		if err := db.PutVectors(ctx, benchModel, docs, pool.take(len(docs))); err != nil {
			tb.Fatal(err)
		}
		n += len(docs)
	}
	if _, _, err := db.IndexProgress(ctx, benchModel); err != nil {
		tb.Fatal(err)
	}
	// Nothing pending: the indexer's idle upkeep.
	for {
		more, err := db.MaintainIndex(ctx)
		if err != nil {
			tb.Fatal(err)
		}
		if !more {
			break
		}
	}
	return n
}

// createOne is the from-segments write: the processed conversation and its
// memories in one transaction, as the conversation service saves them.
func createOne(tb testing.TB, db *store.DB, c *appliance.Conversation, ms []*appliance.Memory) {
	if err := db.SaveProcessed(context.Background(), c, ms); err != nil {
		tb.Fatal(err)
	}
}

// benchmarkCreate measures one from-segments write (conversation, segments,
// action items, memories) plus the indexing it causes, on a database that
// already holds `existing` such conversations (each with its five search
// docs embedded). A cost that grows with the database shows as a jump
// between the sizes.
func benchmarkCreate(b *testing.B, existing int) {
	ctx := context.Background()
	db := benchDB(ctx, b)
	if _, err := db.UseEmbeddingModel(ctx, benchModel, benchDims); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 12))
	pool := newVectorPool(r, benchDims)
	now := time.Now()
	n := 0
	for ; n < existing; n++ {
		c, ms := benchConversation(r, n, "u1", now)
		createOne(b, db, c, ms)
		if n%64 == 63 {
			indexPending(b, db, pool)
		}
	}
	indexPending(b, db, pool)
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		c, ms := benchConversation(r, n, "u1", now)
		n++
		t0 := time.Now()
		createOne(b, db, c, ms)
		lat = append(lat, time.Since(t0))
		if got := indexPending(b, db, pool); got != 5 {
			b.Fatalf("indexed %d docs after one create, want 5", got)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "write-p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "write-p99-ms")
}

func BenchmarkCreateIndexed0(b *testing.B)   { benchmarkCreate(b, 0) }
func BenchmarkCreateIndexed20k(b *testing.B) { benchmarkCreate(b, 20_000) }

// benchDB opens a fresh store in b's temporary folder with the one user
// "u1" the benchmarks write as.
func benchDB(ctx context.Context, b *testing.B) *store.DB {
	b.Helper()
	db, err := store.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.CreateUser(ctx, &appliance.User{ID: "u1", Name: "Ada", CreatedAt: time.Now()}); err != nil {
		b.Fatal(err)
	}
	return db
}
