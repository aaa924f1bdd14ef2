package store

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
)

// Ranking a common word's newest matches. FTS5's bm25() weighs each word
// by how many segments say it, and counts them afresh for every query:
// for a word said in 87k of 1.25M segments that count is 5-9 ms, whatever
// the window (rowid >= from) ranked after it, and it was half the cost of
// a conversation search at 100k conversations. Here the counts are kept a
// minute, and a segment of the window scores the sum of the weights of
// the query's words it says: BM25 with each word said once in a segment
// of average length, which a segment (one utterance) nearly always is.
// BenchmarkSearchConversations5k is unchanged; text-only searches of
// three template words on the 100k-conversation scale database: p50 80-90
// ms with bm25() over the window, 9.4-9.8 ms with this.

// termCountTTL is how long a word's count is reused: a minute of new
// segments moves a weight by a fraction of a percent.
const termCountTTL = time.Minute

type termCount struct {
	n  int64
	at time.Time
}

type termCounts struct {
	mu sync.Mutex
	m  map[string]termCount
}

// segmentsSaying is how many segments say term (a quoted FTS5 term), from the
// cache when it is fresh.
func (db *DB) segmentsSaying(ctx context.Context, term string) (int64, error) {
	now := time.Now()
	db.terms.mu.Lock()
	c, ok := db.terms.m[term]
	db.terms.mu.Unlock()
	if ok && now.Sub(c.at) < termCountTTL {
		return c.n, nil
	}
	var n int64
	if err := db.queryRow(ctx, `SELECT count(*) FROM segment_fts WHERE segment_fts MATCH ?`, term).Scan(&n); err != nil {
		return 0, fmt.Errorf("transcript search: %w", err)
	}
	db.terms.mu.Lock()
	if db.terms.m == nil || len(db.terms.m) > 10000 {
		db.terms.m = map[string]termCount{}
	}
	db.terms.m[term] = termCount{n: n, at: now}
	db.terms.mu.Unlock()
	return n, nil
}

// saidMatchesWindow is saidMatchesFrom for a window (from > 0) of a query
// whose words are said more often than the window holds.
func (db *DB) saidMatchesWindow(ctx context.Context, match, filter string, fargs []any, limit int, from int64) ([]saidMatch, error) {
	var total int64
	if err := db.queryRow(ctx, `SELECT COALESCE(max(doc_id), 0) FROM segment_docs`).Scan(&total); err != nil {
		return nil, fmt.Errorf("transcript search: %w", err)
	}
	score := map[int64]float64{}
	for _, term := range strings.Split(match, " OR ") {
		n, err := db.segmentsSaying(ctx, term)
		if err != nil {
			return nil, err
		}
		// BM25's weight of a word, floored as FTS5 floors it.
		idf := max(math.Log((float64(total)-float64(n)+0.5)/(float64(n)+0.5)), 1e-6)
		// A word said no more often than the window holds is ranked in
		// all its segments, not only the newest: "okay zebra" finds the
		// one zebra of a year ago among this week's thousand okays.
		termFrom := from
		if n <= saidWindow {
			termFrom = 0
		}
		rows, err := db.query(ctx, `SELECT rowid FROM segment_fts WHERE segment_fts MATCH ? AND rowid >= ?`, term, termFrom)
		if err != nil {
			return nil, fmt.Errorf("transcript search: %w", err)
		}
		for rows.Next() {
			var seg int64
			if err := rows.Scan(&seg); err != nil {
				rows.Close()
				return nil, fmt.Errorf("transcript search: %w", err)
			}
			score[seg] += idf
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("transcript search: %w", err)
		}
	}
	segs := make([]int64, 0, len(score))
	for s := range score {
		segs = append(segs, s)
	}
	sort.Slice(segs, func(i, j int) bool {
		if score[segs[i]] != score[segs[j]] {
			return score[segs[i]] > score[segs[j]]
		}
		return segs[i] > segs[j]
	})
	// Only the best are named and filtered, a batch at a time until they
	// name enough conversations: reading a conversation's row for each of a
	// window's segments was most of the cost, and naming the best limit
	// (eight per conversation wanted) was a third of a search at 100k
	// conversations, when the best segments nearly always belong to as many
	// conversations. All of them are named when the filters turn most away.
	want := limit / segmentsPerResult
	var out []saidMatch
	convs := map[int64]bool{}
	for at, step := 0, want+want/2+1; at < len(segs) && len(convs) < want && len(out) < limit; step *= 4 {
		batch := segs[at:min(at+step, len(segs))]
		at += len(batch)
		named, err := db.namedSegments(ctx, batch, score, filter, fargs)
		if err != nil {
			return nil, err
		}
		for _, m := range named {
			convs[m.doc] = true
		}
		out = append(out, named...)
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// namedSegments names the segments segs that pass the filter by their
// conversations' search documents, best score first.
func (db *DB) namedSegments(ctx context.Context, segs []int64, score map[int64]float64, filter string, fargs []any) ([]saidMatch, error) {
	// CROSS JOIN keeps the segments first: the planner otherwise may walk
	// the user's conversations and all their segments (9 ms at 5k).
	rows, err := db.query(ctx, `SELECT d.doc_id, s.doc_id, s.start_s, s.speaker
		FROM json_each(?) j CROSS JOIN segment_docs s ON s.doc_id = j.value
		JOIN conversations c ON c.id = s.conversation_id
		JOIN search_docs d ON d.item_id = s.conversation_id AND d.kind = 'conversation'
		WHERE s.user_id = ? AND `+filter,
		append([]any{idList(segs), fargs[0]}, fargs...)...)
	if err != nil {
		return nil, fmt.Errorf("transcript search: %w", err)
	}
	defer rows.Close()
	var out []saidMatch
	for rows.Next() {
		var m saidMatch
		if err := rows.Scan(&m.doc, &m.hit.seg, &m.hit.start, &m.hit.speaker); err != nil {
			return nil, fmt.Errorf("transcript search: %w", err)
		}
		m.rank = -score[m.hit.seg] // as bm25(): lower is better
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("transcript search: %w", err)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].rank != out[j].rank {
			return out[i].rank < out[j].rank
		}
		return out[i].hit.seg > out[j].hit.seg
	})
	return out, nil
}
