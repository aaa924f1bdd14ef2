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
// by how many documents have it, and counts them afresh for every query:
// for a word said in 87k of 1.25M segments that count is 5-9 ms, whatever
// the window (rowid >= from) ranked after it, and it was half the cost of
// a conversation search at 100k conversations; over the conversations'
// titles and overviews it was the largest part left of one. Here the
// counts are kept a minute, and a document of the window scores the sum of
// the weights of the query's words it has: BM25 with each word said once
// in a document of average length, which a segment (one utterance)
// nearly always is. BenchmarkSearchConversations5k is unchanged; text-only
// searches of three template words on the 100k-conversation scale
// database: p50 80-90 ms with bm25() over the window, 9.4-9.8 ms with this.

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

// counted is the count of key from the cache when it is fresh, or from
// count (then kept).
func (db *DB) counted(ctx context.Context, key string, count func(context.Context) (int64, error)) (int64, error) {
	now := time.Now()
	db.terms.mu.Lock()
	c, ok := db.terms.m[key]
	db.terms.mu.Unlock()
	if ok && now.Sub(c.at) < termCountTTL {
		return c.n, nil
	}
	n, err := count(ctx)
	if err != nil {
		return 0, err
	}
	db.terms.mu.Lock()
	if db.terms.m == nil || len(db.terms.m) > 10000 {
		db.terms.m = map[string]termCount{}
	}
	db.terms.m[key] = termCount{n: n, at: now}
	db.terms.mu.Unlock()
	return n, nil
}

// docsSaying is how many documents of the FTS5 table have term (a quoted
// FTS5 term). Counting them reads the word's whole list (4-5 ms for a
// word in 40k segments, a tenth of a search at 100k conversations while
// the counts were cold), so a word is first counted among the newest
// sixteenth of the documents, forwards from where they start (FTS5 seeks
// there), and that count scaled stands for it when it is large enough to
// be a fair sample; a word found there fewer than sampleMin times is
// counted in full, its list being short.
func (db *DB) docsSaying(ctx context.Context, table, term string) (int64, error) {
	return db.counted(ctx, table+"\x1f"+term, func(ctx context.Context) (int64, error) {
		last, err := db.lastDoc(ctx, table)
		if err != nil {
			return 0, err
		}
		var n int64
		if from := last - last/sampleShare; from > 0 {
			err := db.queryRow(ctx, `SELECT count(*) FROM `+table+` WHERE `+table+` MATCH ? AND rowid > ?`, term, from).Scan(&n)
			if err != nil {
				return 0, fmt.Errorf("text search: %w", err)
			}
			if n >= sampleMin {
				return n * last / (last - from), nil
			}
		}
		if err := db.queryRow(ctx, `SELECT count(*) FROM `+table+` WHERE `+table+` MATCH ?`, term).Scan(&n); err != nil {
			return 0, fmt.Errorf("text search: %w", err)
		}
		return n, nil
	})
}

// A word's count is sampled from the newest 1/sampleShare of the
// documents when it is found there at least sampleMin times (docsSaying).
const (
	sampleShare = 16
	sampleMin   = 256
)

// lastDoc is the largest doc id of the FTS5 table's documents (doc ids
// are not reused, so it is near their count, and cheap).
func (db *DB) lastDoc(ctx context.Context, table string) (int64, error) {
	if table == "segment_fts" {
		return db.segmentTotal(ctx)
	}
	return db.lastSearchDoc(ctx)
}

// windowHit is a document of a window and its score (higher is better).
type windowHit struct {
	doc   int64
	score float64
}

// rankWindow ranks the newest matches of terms (quoted FTS5 terms) in
// table: each term's matches from rowid from on, or all of them for a term
// in no more than window documents ("okay zebra" finds the one zebra of a
// year ago among this week's thousand okays). total is how many documents
// the table holds. The best limit, best first, newest first among equals.
// One statement sums the terms' weights and sorts in SQLite: reading each
// term's matches into Go (a row through database/sql each) cost more than
// the scoring.
func (db *DB) rankWindow(ctx context.Context, table string, terms []string, from int64, window int, total int64, limit int) ([]windowHit, error) {
	args := make([]any, 0, 3*len(terms)+1)
	for _, term := range terms {
		n, err := db.docsSaying(ctx, table, term)
		if err != nil {
			return nil, err
		}
		// BM25's weight of a word, floored as FTS5 floors it (a sampled
		// count may pass the total).
		idf := 1e-6
		if n < total {
			idf = max(math.Log((float64(total)-float64(n)+0.5)/(float64(n)+0.5)), idf)
		}
		termFrom := from
		if n <= int64(window) {
			termFrom = 0
		}
		args = append(args, idf, term, termFrom)
	}
	rows, err := db.query(ctx, windowQuery(table, len(terms)), append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("text search: %w", err)
	}
	defer rows.Close()
	out := make([]windowHit, 0, limit)
	for rows.Next() {
		var h windowHit
		if err := rows.Scan(&h.doc, &h.score); err != nil {
			return nil, fmt.Errorf("text search: %w", err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("text search: %w", err)
	}
	return out, nil
}

// windowQuery is rankWindow's statement for n terms (one text per table
// and n, so it stays prepared).
func windowQuery(table string, n int) string {
	var b strings.Builder
	b.WriteString(`SELECT rowid, sum(w) FROM (`)
	for i := range n {
		if i > 0 {
			b.WriteString(` UNION ALL `)
		}
		b.WriteString(`SELECT rowid, ? AS w FROM ` + table + ` WHERE ` + table + ` MATCH ? AND rowid >= ?`)
	}
	b.WriteString(`) GROUP BY rowid ORDER BY 2 DESC, 1 DESC LIMIT ?`)
	return b.String()
}

// segmentTotal is how many segments there are, as BM25 counts them (doc
// ids are never reused, so the largest is near enough and cheap).
func (db *DB) segmentTotal(ctx context.Context) (int64, error) {
	var total int64
	if err := db.queryRow(ctx, `SELECT COALESCE(max(doc_id), 0) FROM transcript_segments`).Scan(&total); err != nil {
		return 0, fmt.Errorf("transcript search: %w", err)
	}
	return total, nil
}

// conversationDocs is how many conversations' titles and overviews are in
// their index (a scan of the search documents' key: kept a minute).
func (db *DB) conversationDocs(ctx context.Context) (int64, error) {
	return db.counted(ctx, "search_fts_conversation\x1f", func(ctx context.Context) (n int64, err error) {
		err = db.queryRow(ctx, `SELECT count(*) FROM search_docs WHERE kind = 'conversation'`).Scan(&n)
		if err != nil {
			err = fmt.Errorf("text search: %w", err)
		}
		return n, err
	})
}

// saidMatchesWindow is saidMatchesFrom for a window (from > 0) of a query
// whose words are said more often than the window holds.
func (db *DB) saidMatchesWindow(ctx context.Context, terms []string, filter string, fargs []any, limit int, from, total int64) ([]saidMatch, error) {
	// Only the best are named and filtered, a batch at a time until they
	// name enough conversations: reading a conversation's row for each of a
	// window's segments was most of the cost, and naming the best limit
	// (eight per conversation wanted) was a third of a search at 100k
	// conversations, when the best segments nearly always belong to as many
	// conversations. More of the window is read when the filters turn most
	// away.
	want := limit / segmentsPerResult
	var out []saidMatch
	convs := map[int64]bool{}
	// The first batch is all that is read at first: it nearly always
	// names enough (a longer read is a second statement, rarely needed).
	read := want + want/2 + 1
	segs, err := db.rankWindow(ctx, "segment_fts", terms, from, saidWindow, total, read)
	if err != nil {
		return nil, err
	}
	for at, step := 0, want+want/2+1; len(convs) < want && len(out) < limit; step *= 4 {
		if at == len(segs) {
			if len(segs) < read {
				break // the whole window was read
			}
			read *= 8
			if segs, err = db.rankWindow(ctx, "segment_fts", terms, from, saidWindow, total, read); err != nil {
				return nil, err
			}
			if at == len(segs) {
				break
			}
		}
		batch := segs[at:min(at+step, len(segs))]
		at += len(batch)
		named, err := db.namedSegments(ctx, batch, filter, fargs)
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
func (db *DB) namedSegments(ctx context.Context, segs []windowHit, filter string, fargs []any) ([]saidMatch, error) {
	ids := make([]int64, len(segs))
	score := make(map[int64]float64, len(segs))
	for i, s := range segs {
		ids[i], score[s.doc] = s.doc, s.score
	}
	// CROSS JOIN keeps the segments first: the planner otherwise may walk
	// the user's conversations and all their segments (9 ms at 5k).
	rows, err := db.query(ctx, `SELECT d.doc_id, s.doc_id, s.start_s, s.speaker
		FROM json_each(?) j CROSS JOIN segment_docs s ON s.doc_id = j.value
		JOIN conversations c ON c.id = s.conversation_id
		JOIN search_docs d ON d.item_id = s.conversation_id AND d.kind = 'conversation'
		WHERE s.user_id = ? AND `+filter,
		append([]any{idList(ids), fargs[0]}, fargs...)...)
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

// titleWindow is the title and overview matches of a window (from > 0,
// the doc ids up to last): the best n of the conversations that pass the
// filter, with their scores (higher is better). When too few in the window
// pass (the filters, or other users' matches, turned it away), the window
// grows eightfold, twice, then takes all the matches, as textCandidates'.
func (db *DB) titleWindow(ctx context.Context, terms []string, filter string, fargs []any, n int, from, last int64) ([]windowHit, error) {
	total, err := db.conversationDocs(ctx)
	if err != nil {
		return nil, err
	}
	window := textWindow
	for read := 2 * n; ; {
		docs, err := db.rankWindow(ctx, "search_fts_conversation", terms, from, window, total, read)
		if err != nil {
			return nil, err
		}
		ids := make([]int64, len(docs))
		for i, d := range docs {
			ids[i] = d.doc
		}
		rows, err := db.query(ctx, `SELECT d.doc_id FROM json_each(?) j CROSS JOIN search_docs d ON d.doc_id = j.value
			JOIN conversations c ON c.id = d.item_id WHERE `+filter, append([]any{idList(ids)}, fargs...)...)
		if err != nil {
			return nil, fmt.Errorf("text search: %w", err)
		}
		kept := map[int64]bool{}
		for rows.Next() {
			var doc int64
			if err := rows.Scan(&doc); err != nil {
				rows.Close()
				return nil, fmt.Errorf("text search: %w", err)
			}
			kept[doc] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("text search: %w", err)
		}
		if len(kept) < n && len(docs) < read && from > 0 {
			window *= 8
			from, read = 0, 2*n
			if window <= textWindow<<6 {
				if from, err = db.windowFrom(ctx, "search_fts_conversation", terms, window, last); err != nil {
					return nil, err
				}
			}
			continue
		}
		if len(kept) >= n || len(docs) < read {
			out := make([]windowHit, 0, len(kept))
			for _, d := range docs {
				if kept[d.doc] && len(out) < n {
					out = append(out, d)
				}
			}
			return out, nil
		}
		read *= 8
	}
}
