package store_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/store"
)

// benchWords builds memory-like texts so that FTS has real postings.
var benchWords = strings.Fields(`budget meeting dentist garden tomato piano lesson passport flight hotel
	doctor medication school pickup birthday party gift recipe pasta running marathon training bike repair
	insurance invoice client project deadline launch review hiring interview family dinner weekend hiking
	camera photo vacation beach museum concert ticket guitar coffee tea allergy peanut yoga sleep`)

// vocabulary is a Zipf-distributed lexicon: the topical words above plus
// 5000 made-up ones, so that term frequencies look like real text (a few
// very common words, a long tail of rare ones) rather than 60 words each
// matching thousands of memories.
var vocabulary = func() []string {
	r := rand.New(rand.NewPCG(7, 8))
	// The head of real text is function words; then topics; then the tail.
	words := strings.Fields("the and to of a i in that it is was for on you with my he we at be this have but not they")
	words = append(words, benchWords...)
	syll := strings.Fields("ka lo mi re tu sa ne po vi da ri mo le chi ba")
	for len(words) < 5000+len(benchWords) {
		n := 2 + r.IntN(3)
		var w strings.Builder
		for range n {
			w.WriteString(syll[r.IntN(len(syll))])
		}
		words = append(words, w.String())
	}
	return words
}()

func benchText(r *rand.Rand) string {
	z := rand.NewZipf(r, 1.1, 2, uint64(len(vocabulary)-1))
	n := 6 + r.IntN(10)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = vocabulary[z.Uint64()]
	}
	return strings.Join(ws, " ")
}

// benchQuery is three words drawn like the texts.
func benchQuery(r *rand.Rand) string {
	z := rand.NewZipf(r, 1.1, 2, uint64(len(vocabulary)-1))
	return vocabulary[z.Uint64()] + " " + vocabulary[z.Uint64()] + " " + vocabulary[z.Uint64()]
}

func randomUnit(r *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	var n float64
	for i := range v {
		x := r.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

// seedSearch fills a store with n memories of one user, each with a random
// 384-d unit vector (what matters for KNN cost is the count and dimension).
func seedSearch(b *testing.B, n int) (*store.DB, [][]float32) {
	b.Helper()
	ctx := context.Background()
	db := benchDB(ctx, b)
	const dims, model = 384, "bench-random-384"
	if _, err := db.UseEmbeddingModel(ctx, model, dims); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	now := time.Now()
	vectors := make([][]float32, 0, n)
	for start := 0; start < n; start += 1000 {
		var ms []*appliance.Memory
		for i := start; i < min(start+1000, n); i++ {
			ms = append(ms, &appliance.Memory{ID: fmt.Sprintf("m%06d", i), UserID: "u1", Content: benchText(r),
				Category: "system", CreatedAt: now, UpdatedAt: now})
		}
		if err := db.CreateMemories(ctx, ms); err != nil {
			b.Fatal(err)
		}
		docs, err := db.PendingDocs(ctx, model, len(ms))
		if err != nil {
			b.Fatal(err)
		}
		vecs := make([][]float32, len(docs))
		for i := range docs {
			vecs[i] = randomUnit(r, dims)
		}
		if err := db.PutVectors(ctx, model, docs, vecs); err != nil {
			b.Fatal(err)
		}
		vectors = append(vectors, vecs...)
	}
	return db, vectors
}

func benchmarkSearch(b *testing.B, n int) {
	db, vectors := seedSearch(b, n)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		// A query near a stored memory, with three words of text.
		q := vectors[r.IntN(len(vectors))]
		noisy := make([]float32, len(q))
		for i := range q {
			noisy[i] = q[i] + float32(r.NormFloat64()*0.02)
		}
		start := time.Now()
		hits, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Limit: 10,
			Text:   benchQuery(r),
			Vector: noisy, Model: "bench-random-384"})
		lat = append(lat, time.Since(start))
		if err != nil || len(hits) == 0 {
			b.Fatalf("search: %d hits, %v", len(hits), err)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

func BenchmarkSearchHybrid10k(b *testing.B)  { benchmarkSearch(b, 10_000) }
func BenchmarkSearchHybrid100k(b *testing.B) { benchmarkSearch(b, 100_000) }

// TestSearch_BinaryQuantizationRecall checks that sign-bit KNN with exact
// rescoring finds what exact cosine finds: for queries near stored vectors,
// the stored vector itself must come first.
func TestSearch_BinaryQuantizationRecall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpenDB(t)
	mustUser(t, db, "u1")
	if _, err := db.UseEmbeddingModel(ctx, "rand", 384); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	now := time.Now()
	var ms []*appliance.Memory
	for i := range 2000 {
		ms = append(ms, &appliance.Memory{ID: fmt.Sprintf("m%04d", i), UserID: "u1", Content: benchText(r), Category: "system", CreatedAt: now, UpdatedAt: now})
	}
	if err := db.CreateMemories(ctx, ms); err != nil {
		t.Fatal(err)
	}
	docs, _ := db.PendingDocs(ctx, "rand", 5000)
	vecs := make([][]float32, len(docs))
	for i := range docs {
		vecs[i] = randomUnit(r, 384)
	}
	if err := db.PutVectors(ctx, "rand", docs, vecs); err != nil {
		t.Fatal(err)
	}
	found := 0
	const queries = 100
	for i := range queries {
		target := vecs[i*17%len(vecs)]
		noisy := make([]float32, 384)
		for j := range target {
			noisy[j] = target[j] + float32(r.NormFloat64()*0.03)
		}
		hits, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Limit: 1, Vector: noisy, Model: "rand"})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 1 && hits[0].ItemID == ms[i*17%len(vecs)].ID {
			found++
		}
	}
	t.Logf("recall@1 of sign-bit KNN with rescoring: %d/%d", found, queries)
	if found < 95 {
		t.Fatalf("recall@1 = %d/%d, want ≥ 95", found, queries)
	}
}

// BenchmarkSearchMemoriesMCP10k is what the MCP search_memories tool asks of
// the store, on the memories hearth-bench seeds: 10k notes over 20 topics
// (each query's two words match 500 of them), embedded by the built-in
// embedder; Search with limit 10 and its relevance floor, then the hits
// loaded by id.
func BenchmarkSearchMemoriesMCP10k(b *testing.B) {
	ctx := context.Background()
	db := benchDB(ctx, b)
	emb := embed.NewBuiltin(384)
	if _, err := db.UseEmbeddingModel(ctx, emb.Model(), emb.Dims()); err != nil {
		b.Fatal(err)
	}
	topics := []string{
		"dentist appointment cleaning", "passport renewal office", "garden tomato seedlings", "piano lesson practice",
		"budget spreadsheet savings", "marathon training schedule", "daughter school pickup", "coffee oat milk preference",
		"allergy peanuts restaurant", "flight booking lisbon conference", "hiking trail weekend", "birthday gift sister",
		"car insurance renewal", "yoga class tuesday", "book club novel", "bike repair shop", "camera lens photography",
		"recipe pasta sauce", "doctor blood pressure", "neighbour spare key",
	}
	now := time.Now()
	for start := 0; start < 10_000; start += 500 {
		var ms []*appliance.Memory
		for i := start; i < start+500; i++ {
			ms = append(ms, &appliance.Memory{ID: fmt.Sprintf("m%05d", i), UserID: "u1", Category: "system", CreatedAt: now, UpdatedAt: now,
				Content: fmt.Sprintf("Note %d about %s and what was decided", i, topics[i%len(topics)])})
		}
		if err := db.CreateMemories(ctx, ms); err != nil {
			b.Fatal(err)
		}
	}
	for {
		docs, err := db.PendingDocs(ctx, emb.Model(), 500)
		if err != nil {
			b.Fatal(err)
		}
		if len(docs) == 0 {
			break
		}
		texts := make([]string, len(docs))
		for i, d := range docs {
			texts[i] = d.Text
		}
		vecs, _ := emb.Embed(ctx, texts)
		if err := db.PutVectors(ctx, emb.Model(), docs, vecs); err != nil {
			b.Fatal(err)
		}
	}
	// The text index as the idle indexer leaves it: merged.
	for more := true; more; {
		var err error
		if more, err = db.MaintainIndex(ctx); err != nil {
			b.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		words := strings.Fields(topics[r.IntN(len(topics))])
		query := words[r.IntN(len(words))] + " " + words[0]
		start := time.Now()
		vecs, _ := emb.Embed(ctx, []string{query})
		hits, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: query, Limit: 10,
			Vector: vecs[0], Model: emb.Model(), MinSimilarity: embed.MinSimilarity})
		if err != nil || len(hits) == 0 {
			b.Fatalf("search: %d hits, %v", len(hits), err)
		}
		ids := make([]string, len(hits))
		for i, h := range hits {
			ids[i] = h.ItemID
		}
		ms, err := db.MemoriesByID(ctx, "u1", ids)
		if err != nil || len(ms) != len(ids) {
			b.Fatalf("memories by id: %d of %d, %v", len(ms), len(ids), err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkListConversations is what the MCP get_conversations tool asks
// of the store (a page of 20 completed conversations with their action
// items) on a household with 5k conversations; a plan that sorted every
// conversation for a page shows as a jump here.
func BenchmarkListConversations5k(b *testing.B) {
	ctx := context.Background()
	db := benchDB(ctx, b)
	r := rand.New(rand.NewPCG(5, 6))
	now := time.Now()
	for i := range 5000 {
		c, _ := benchConversation(r, i, "u1", now.Add(time.Duration(i)*time.Minute))
		if err := db.SaveConversation(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	f := appliance.ConversationFilter{Limit: 20, Statuses: []appliance.ConversationStatus{appliance.StatusCompleted}, IncludeLocked: true}
	b.ResetTimer()
	for b.Loop() {
		cs, err := db.Conversations(ctx, "u1", f)
		if err != nil || len(cs) != 20 {
			b.Fatalf("%d conversations, %v", len(cs), err)
		}
	}
}
