package main

import (
	"bytes"
	"context"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/search"
	"github.com/hearth-appliance/hearth/store"
)

func TestTranscriptSearchFlags(t *testing.T) {
	t.Parallel()
	cfg, err := parseFlags([]string{"-scenarios", "transcript-search"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.transcriptSearch || !cfg.listenOnly || cfg.searchOthers != 1000 {
		t.Fatalf("defaults: %+v", cfg)
	}
	if _, err := parseFlags([]string{"-scenarios", "transcript-search", "-search-distractors", "-1"}, &bytes.Buffer{}); err == nil {
		t.Error("-search-distractors -1 parsed")
	}
}

// TestSearchSetLabels checks the labelled set itself: enough queries of
// every kind, every label names a conversation, and a word or name query
// is labelled with exactly the conversations that say it (so a search
// that finds another is wrong, not the label).
func TestSearchSetLabels(t *testing.T) {
	if n := len(searchQueries); n < 50 {
		t.Errorf("%d queries, want at least 50", n)
	}
	if n := len(searchTopics); n < 24 {
		t.Errorf("%d topics, want at least 24", n)
	}
	for _, k := range []string{kindWord, kindName, kindPhrase, kindParaphrase} {
		if n := len(queriesOfKind(k)); n < 10 {
			t.Errorf("%d %s queries, want at least 10", n, k)
		}
	}
	corpus := searchCorpus(1)
	said := map[string]string{}
	for _, c := range corpus {
		var b strings.Builder
		for _, s := range c.segments {
			b.WriteString(" " + strings.Join(words(s.Text), " ") + " ")
		}
		said[c.name] = b.String()
	}
	for _, q := range searchQueries {
		var labelled []string
		for _, w := range q.want {
			n := 0
			for _, c := range corpus {
				if c.name == w || strings.HasPrefix(c.name, w+"/") {
					labelled, n = append(labelled, c.name), n+1
				}
			}
			if n == 0 {
				t.Errorf("%q: label %q names no conversation", q.text, w)
			}
		}
		if q.kind != kindWord && q.kind != kindName {
			continue
		}
		needle := " " + strings.Join(words(q.text), " ") + " "
		var saying []string
		for _, c := range corpus {
			if strings.Contains(said[c.name], needle) {
				saying = append(saying, c.name)
			}
		}
		slices.Sort(labelled)
		slices.Sort(saying)
		if !slices.Equal(saying, labelled) {
			t.Errorf("%q is said in %v, labelled %v", q.text, saying, labelled)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		for _, s := range distractorTranscript(r, 12) {
			if saysQueryWord(s.Text) {
				t.Fatalf("a distractor says a query word: %q", s.Text)
			}
		}
	}
}

// TestSearchSetQuality runs the labelled set on a small corpus (the
// labelled conversations among 200 generated ones) through the records
// service the MCP tool and its REST twin call, with the real store,
// pipeline, indexer and built-in embedder. The floors are what this
// measured, less a margin (precision@5 / recall@5 / MRR): all 0.779 /
// 0.938 / 0.908, words 0.899 / 1 / 0.969, names 1 / 1 / 1, phrases 0.700 /
// 1 / 1, paraphrases 0.375 / 0.722 / 0.630. Precision counts the others
// returned among the first 5 (neighbours by meaning, words shared with
// other conversations); a paraphrase shares few words with what was said.
func TestSearchSetQuality(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	uid := appliance.NewID()
	if err := db.CreateUser(ctx, &appliance.User{ID: uid, Name: "Ada", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	svc := conversation.New(conversation.Deps{Store: db, Processor: pipeline.New(pipeline.NewBuiltin(), quiet), Logger: quiet})
	create := func(segs []segment) string {
		t.Helper()
		d := conversation.Draft{UserID: uid, Source: appliance.SourceOmi}
		for _, s := range segs {
			d.Segments = append(d.Segments, appliance.TranscriptSegment{Text: s.Text, Speaker: s.Speaker, IsUser: s.IsUser, Start: s.Start, End: s.End})
		}
		c, err := svc.Create(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	r := rand.New(rand.NewPCG(29, 2))
	ids := map[string]string{}
	for _, c := range searchCorpus(1) {
		for range 6 {
			create(distractorTranscript(r, 12))
		}
		ids[c.name] = create(c.segments)
	}
	if err := indexAll(ctx, db); err != nil {
		t.Fatal(err)
	}
	recs := records.New(records.Deps{Store: db, Logger: quiet,
		Search: search.NewSearcher(db, embed.NewBuiltin(appliance.DefaultConfig().EmbedDims), quiet)})
	find := func(q string) ([]string, error) {
		found, err := recs.SearchConversations(ctx, uid, q, "", "", 5)
		out := make([]string, len(found))
		for i, f := range found {
			out[i] = f.ID
		}
		return out, err
	}
	for _, tc := range []struct {
		kind                   string
		precision, recall, mrr float64
	}{
		{"", 0.73, 0.90, 0.86},
		{kindWord, 0.85, 0.97, 0.93},
		{kindName, 0.95, 0.97, 0.97},
		{kindPhrase, 0.65, 0.95, 0.95},
		{kindParaphrase, 0.30, 0.65, 0.55},
	} {
		s, err := scoreSearch(queriesOfKind(tc.kind), ids, find)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: precision@5 %.3f recall@5 %.3f MRR %.3f over %d queries; found others: %s", tc.kind, s.precision, s.recall, s.mrr, s.queries, strings.Join(s.extra, "; "))
		if s.precision < tc.precision || s.recall < tc.recall || s.mrr < tc.mrr {
			t.Errorf("queries %q: precision@5 %.3f (floor %.2f), recall@5 %.3f (floor %.2f), MRR %.3f (floor %.2f); missed: %s",
				tc.kind, s.precision, tc.precision, s.recall, tc.recall, s.mrr, tc.mrr, strings.Join(s.misses, "; "))
		}
	}
}
