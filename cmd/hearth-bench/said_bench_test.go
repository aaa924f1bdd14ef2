package main

import (
	"context"
	"math/rand/v2"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/appliance/search"
	"github.com/hearth-appliance/hearth/store"
)

// BenchmarkScaleSaid is the scale scenario's conversation search (its
// queries, asked as the MCP tool asks: embedded, no snippets) in process,
// one at a time, on a folder the scale scenario seeded:
// HEARTH_SCALE_DATA=DIR/100000. Its CPU per search (the process's, over
// the loop) is the figure a shared machine does not blur, and a CPU
// profile (-cpuprofile) shows only the search. The folder is searched, not
// written; the store may catch its text index up on opening.
func BenchmarkScaleSaid(b *testing.B) {
	dir := os.Getenv("HEARTH_SCALE_DATA")
	if dir == "" {
		b.Skip("HEARTH_SCALE_DATA names no seeded folder (hearth-bench -scale 100k -scale-data DIR: DIR/100000)")
	}
	ctx := context.Background()
	db, err := store.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	users, err := db.Users(ctx)
	if err != nil || len(users) == 0 {
		b.Fatalf("no user in %s (%v)", dir, err)
	}
	emb := embed.NewBuiltin(appliance.DefaultConfig().EmbedDims)
	if _, err := db.UseEmbeddingModel(ctx, emb.Model(), emb.Dims()); err != nil {
		b.Fatal(err)
	}
	s := search.NewSearcher(db, emb, nil)
	rng := rand.New(rand.NewPCG(29, 2))
	queries := make([]string, 512)
	for i := range queries {
		queries[i] = saidQuery(rng)
	}
	ask := func(text string) {
		hits, err := s.Search(ctx, users[0].ID, appliance.SearchQuery{Kind: appliance.KindConversation, Text: text,
			Limit: 10, NoSnippets: true})
		if err != nil {
			b.Fatal(err)
		}
		if len(hits) == 0 {
			b.Fatalf("%q found nothing", text)
		}
	}
	for _, q := range queries[:64] { // warm the page cache and statements
		ask(q)
	}
	var lat []time.Duration
	i := 0
	cpu0 := selfCPU()
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		ask(queries[i%len(queries)])
		lat = append(lat, time.Since(t0))
		i++
	}
	b.StopTimer()
	b.ReportMetric(float64((selfCPU()-cpu0).Microseconds())/1000/float64(len(lat)), "cpu-ms/op")
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "p90-ms")
}
