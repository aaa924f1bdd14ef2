package search_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/appliance/search"
)

// The labelled set: a household's memories, and queries (exact words and
// paraphrases) with the memories that answer them. Queries with no answer
// must return nothing, not the nearest strangers.
var relevanceDocs = map[string]string{
	"key":      "I keep the spare key with Margaret next door",
	"piano":    "My daughter's piano recital is in May",
	"milk":     "I prefer oat milk in my coffee",
	"budget":   "The quarterly budget is due before the board meeting",
	"overrun":  "Marketing spent ten percent over budget this quarter",
	"allergy":  "I am allergic to penicillin",
	"wifi":     "Our wifi password is written on the fridge door",
	"dentist":  "The dentist appointment is on Thursday afternoon",
	"book":     "Tom recommended the book Thinking Fast and Slow",
	"running":  "I run five kilometres every Saturday morning",
	"car":      "The car needs an oil change next month",
	"birthday": "My mother's birthday is on the fourth of June",
}

var relevanceQueries = []struct {
	query    string
	relevant []string
}{
	{"spare key", []string{"key"}},
	{"where is the extra house key", []string{"key"}},
	{"piano recital", []string{"piano"}},
	{"my daughter's concert", []string{"piano"}},
	{"oat milk", []string{"milk"}},
	{"what do I take in my coffee", []string{"milk"}},
	{"budget", []string{"budget", "overrun"}},
	{"the quarterly budget review", []string{"budget", "overrun"}},
	{"allergies", []string{"allergy"}},
	{"wifi password", []string{"wifi"}},
	{"dentist", []string{"dentist"}},
	{"book recommendation", []string{"book"}},
	{"running on weekends", []string{"running"}},
	{"car maintenance oil", []string{"car"}},
	{"mother's birthday", []string{"birthday"}},
	{"garden", nil},
	{"peanuts", nil},
	{"holiday flights to Lisbon", nil},
}

// evaluate runs every query with floor and returns mean precision@5 and
// recall@5 (queries without an answer count as precise when nothing comes
// back) and how many stranger hits the unanswerable queries returned.
func evaluate(t *testing.T, s *search.Searcher, floor float64) (precision, recall float64, strangers int) {
	t.Helper()
	var pSum, rSum float64
	var rN int
	for _, q := range relevanceQueries {
		hits, err := s.Search(context.Background(), "u1", appliance.SearchQuery{Kind: appliance.KindMemory, Text: q.query, Limit: 5, MinSimilarity: floor})
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, h := range hits {
			for _, r := range q.relevant {
				if h.ItemID == r {
					found++
				}
			}
		}
		if len(q.relevant) == 0 {
			strangers += len(hits)
			if len(hits) == 0 {
				pSum++
			}
			continue
		}
		if len(hits) > 0 {
			pSum += float64(found) / float64(len(hits))
		}
		rSum += float64(found) / float64(min(len(q.relevant), 5))
		rN++
	}
	return pSum / float64(len(relevanceQueries)), rSum / float64(rN), strangers
}

// TestRelevanceFloor measures precision@5 and recall@5 of hybrid search with
// the built-in embedder on the labelled set, with and without its
// calibrated floor, and holds the floored figures to the recorded ones.
func TestRelevanceFloor(t *testing.T) {
	t.Parallel()
	db, ctx := setup(t)
	now := time.Now()
	var ms []*appliance.Memory
	for id, text := range relevanceDocs {
		ms = append(ms, &appliance.Memory{ID: id, UserID: "u1", Content: text, Category: "system", CreatedAt: now, UpdatedAt: now})
	}
	if err := db.CreateMemories(context.Background(), ms); err != nil {
		t.Fatal(err)
	}
	emb := embed.NewBuiltin(0)
	ix := search.NewIndexer(db, emb, nil)
	if err := ix.Start(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "embedded", func() bool { p := ix.Progress(); return p.Total == len(ms) && p.Embedded == len(ms) })
	s := search.NewSearcher(db, emb, nil)

	var report strings.Builder
	for _, floor := range []float64{-1, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35} {
		p, r, st := evaluate(t, s, floor)
		fmt.Fprintf(&report, "floor %.2f: precision@5 %.3f, recall@5 %.3f, stranger hits %d\n", max(floor, 0), p, r, st)
	}
	p, r, st := evaluate(t, s, 0) // the searcher's default: the embedder's calibrated floor
	fmt.Fprintf(&report, "default (calibrated %.2f): precision@5 %.3f, recall@5 %.3f, stranger hits %d\n", embed.MinSimilarity, p, r, st)
	t.Log("\n" + report.String())
	if os.Getenv("HEARTH_RELEVANCE_REPORT") != "" {
		fmt.Print(report.String())
	}
	p0, r0, st0 := evaluate(t, s, -1) // no floor
	if st0 == 0 {
		t.Fatal("without a floor the unanswerable queries returned nothing: the set no longer tests the floor")
	}
	if st != 0 || p <= p0 || r < r0-0.05 {
		t.Fatalf("calibrated floor: precision@5 %.3f (without %.3f), recall@5 %.3f (without %.3f), strangers %d", p, p0, r, r0, st)
	}
}
