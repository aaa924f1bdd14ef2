package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// BenchmarkSearchConversations5k: a conversation search (three words drawn
// like the texts, text only) over 5,000 conversations of 12 segments, the
// words said indexed with their titles (migration 0028).
func BenchmarkSearchConversations5k(b *testing.B) {
	ctx := context.Background()
	db := benchDB(ctx, b)
	r := rand.New(rand.NewPCG(5, 6))
	at := time.Now().UTC().Add(-5000 * time.Hour)
	for i := range 5000 {
		started, finished := at.Add(time.Duration(i)*time.Hour), at.Add(time.Duration(i)*time.Hour+10*time.Minute)
		c := &appliance.Conversation{ID: fmt.Sprintf("c%05d", i), UserID: "u1", CreatedAt: started, UpdatedAt: started,
			StartedAt: &started, FinishedAt: &finished, Source: appliance.SourceOmi, Language: "en",
			Status: appliance.StatusCompleted, Structured: appliance.EmptyStructured()}
		c.Structured.Title, c.Structured.Overview = benchQuery(r), benchText(r)
		for j := range 12 {
			c.TranscriptSegments = append(c.TranscriptSegments, appliance.TranscriptSegment{ID: fmt.Sprintf("s%d", j),
				Text: benchText(r), Speaker: "SPEAKER_00", Start: float64(5 * j), End: float64(5*j + 4)})
		}
		if err := db.SaveConversation(ctx, c); err != nil {
			b.Fatal(err)
		}
	}
	// As the indexer leaves it when idle: everything indexed, merged.
	for {
		n, err := db.IndexText(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	for {
		more, err := db.MaintainIndex(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if !more {
			break
		}
	}
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		_, err := db.Search(ctx, "u1", appliance.SearchQuery{Kind: appliance.KindConversation, Limit: 10, Text: benchQuery(r)})
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
