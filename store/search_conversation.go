package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/hearth-appliance/hearth/appliance"
)

// Weights of a conversation's fields in its text score (BM25 per index,
// scaled): the title, category and overview say what the conversation was
// about, so a word there counts twice a word said once in it.
const (
	weightTitle   = 2.0
	weightSegment = 1.0
	// segmentsPerResult: segment matches read per wanted conversation (a
	// conversation may match in many segments; only its best one counts).
	segmentsPerResult = 8
	// textFloor drops a text hit whose score is below this share of the
	// best one's: it matched only words that are common among the
	// candidates, not what the query is about.
	textFloor = 0.1
	// snippetTokens is how many words a snippet shows around the match.
	snippetTokens = 16
	// saidWindow bounds BM25's work in the segment index as textWindow
	// does in the others: a common word is said in tens of thousands of
	// segments, and FTS5 scores every match before it sorts them. The
	// newest saidWindow matches are ranked first; all of them only when
	// those name too few conversations (a rare word's matches are fewer
	// than the window anyway). BenchmarkSearchConversations5k: p99 479 ms
	// ranking every match; p50 7.5 ms with 2,048, 4.9 ms with 512.
	saidWindow = 512
)

// saidHit is where a conversation's words were said.
type saidHit struct {
	seg     int64 // the segment's doc id; its snippet is made last
	snippet string
	start   float64
	speaker string
	phrase  bool // the segment says the query as a phrase
}

// conversationText ranks conversations by the words of the query: in the
// title and overview (the conversation's search document) and in what was
// said (segment_fts, migration 0028). An exact phrase found in a segment
// ranks first; then the weighted BM25 sum of the best document and the best
// segment match. The filters of the query are in the SQL of both.
func (db *DB) conversationText(ctx context.Context, userID string, q appliance.SearchQuery, n int) ([]int64, map[int64]saidHit, error) {
	match := ftsQuery(q.Text)
	if match == "" {
		return nil, nil, nil
	}
	if err := db.textCaughtUp(ctx); err != nil {
		return nil, nil, err
	}
	filter, fargs := conversationFilter(userID, q)
	score := map[int64]float64{}
	said := map[int64]saidHit{}

	// Title and overview: bm25() (lower for better matches) when the
	// query's words are in few of them, the words' kept weights over the
	// newest when they are common (saidrank.go).
	terms := strings.Split(match, " OR ")
	lastDoc, err := db.lastSearchDoc(ctx)
	if err != nil {
		return nil, nil, err
	}
	from, err := db.windowFrom(ctx, "search_fts_conversation", terms, textWindow, lastDoc)
	if err != nil {
		return nil, nil, err
	}
	if from > 0 {
		titles, err := db.titleWindow(ctx, terms, filter, fargs, n, from, lastDoc)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range titles {
			score[t.doc] += t.score * weightTitle
		}
	} else if err := db.titleRanked(ctx, match, filter, fargs, n, score); err != nil {
		return nil, nil, err
	}

	// What was said: the best segment of each conversation.
	segs, err := db.saidMatches(ctx, match, terms, filter, fargs, n*segmentsPerResult)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range segs {
		if _, ok := said[s.doc]; ok {
			continue
		}
		said[s.doc] = s.hit
		score[s.doc] += -s.rank * weightSegment
	}

	// An exact phrase said, in order, goes first, newest first: which
	// conversations said it is all that counts, so its matches need no
	// BM25 (ranking them cost as much as the word query itself).
	var phrased []int64
	phrase := ftsPhrase(q.Text)
	if phrase != "" {
		// The phrase's conversations take the first ranks of the n
		// kept, and only the first few of those are shown (n is four
		// candidates per result): half of n segments, newest first, name
		// enough of them. Twice n (each one's segment read and joined to
		// its conversation) was an eighth of a search at 100k
		// conversations.
		from, err := db.phraseFrom(ctx, terms)
		if err != nil {
			return nil, nil, err
		}
		ps, err := db.phraseMatches(ctx, phrase, filter, fargs, max(n/2, 1), from)
		if err != nil {
			return nil, nil, err
		}
		seen := map[int64]bool{}
		for _, s := range ps {
			if !seen[s.doc] {
				seen[s.doc] = true
				phrased = append(phrased, s.doc)
				s.hit.phrase = true
				said[s.doc] = s.hit // the phrase's segment is the one to show
			}
		}
	}

	best := 0.0
	for _, s := range score {
		best = max(best, s)
	}
	ids := make([]int64, 0, len(score))
	for doc, s := range score {
		if s >= best*textFloor {
			ids = append(ids, doc)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		if score[ids[i]] != score[ids[j]] {
			return score[ids[i]] > score[ids[j]]
		}
		return ids[i] > ids[j]
	})
	if len(phrased) > 0 {
		first := map[int64]bool{}
		for _, d := range phrased {
			first[d] = true
		}
		rest := ids[:0:0]
		for _, d := range ids {
			if !first[d] {
				rest = append(rest, d)
			}
		}
		ids = append(phrased, rest...)
	}
	if len(ids) > n {
		ids = ids[:n]
	}
	return ids, said, nil
}

// titleRanked adds to score the n best title and overview matches of all
// the conversations' (few enough to rank with bm25()) that pass the filter.
func (db *DB) titleRanked(ctx context.Context, match, filter string, fargs []any, n int, score map[int64]float64) error {
	rows, err := db.query(ctx, `SELECT d.doc_id, bm25(search_fts_conversation) FROM search_fts_conversation f
		JOIN search_docs d ON d.doc_id = f.rowid JOIN conversations c ON c.id = d.item_id
		WHERE search_fts_conversation MATCH ? AND `+filter+` ORDER BY f.rank LIMIT ?`,
		append(append([]any{match}, fargs...), n)...)
	if err != nil {
		return fmt.Errorf("text search: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc int64
		var rank float64
		if err := rows.Scan(&doc, &rank); err != nil {
			return fmt.Errorf("text search: %w", err)
		}
		score[doc] += -rank * weightTitle
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("text search: %w", err)
	}
	return nil
}

// saidSnippets makes the snippets of the conversations shown (docs): the
// matched words (or the phrase, where it was said) between <mark> and
// </mark>. One segment at a time: FTS5 seeks a rowid in its match list,
// where a list of rowids (IN) made it walk every match of the query, 3 ms
// for a common word at 46k segments.
func (db *DB) saidSnippets(ctx context.Context, docs []int64, said map[int64]saidHit, text string) error {
	var match, phrase string
	for _, d := range docs {
		h, ok := said[d]
		if !ok {
			continue
		}
		m := &match
		if h.phrase {
			m = &phrase
			if phrase == "" {
				phrase = ftsPhrase(text)
			}
		} else if match == "" {
			match = ftsQuery(text)
		}
		err := db.queryRow(ctx, `SELECT snippet(segment_fts, 0, '<mark>', '</mark>', '…', ?) FROM segment_fts
			WHERE segment_fts MATCH ? AND rowid = ?`, snippetTokens, *m, h.seg).Scan(&h.snippet)
		if errors.Is(err, sql.ErrNoRows) {
			continue // edited since it was found
		}
		if err != nil {
			return fmt.Errorf("transcript snippets: %w", err)
		}
		said[d] = h
	}
	return nil
}

type saidMatch struct {
	doc  int64
	rank float64
	hit  saidHit
}

// saidMatches returns the best segment matches, best first, each named by
// its conversation's search document: among the newest saidWindow matches
// (ranked with kept word counts, saidrank.go), or all of them by bm25()
// when there are fewer or they name too few conversations.
func (db *DB) saidMatches(ctx context.Context, match string, terms []string, filter string, fargs []any, limit int) ([]saidMatch, error) {
	total, err := db.segmentTotal(ctx)
	if err != nil {
		return nil, err
	}
	from, err := db.windowFrom(ctx, "segment_fts", terms, saidWindow, total)
	if err != nil {
		return nil, err
	}
	if from == 0 {
		return db.saidMatchesFrom(ctx, match, filter, fargs, limit, 0)
	}
	out, err := db.saidMatchesWindow(ctx, terms, filter, fargs, limit, from, total)
	if err != nil || len(out) >= limit/segmentsPerResult {
		return out, err
	}
	return db.saidMatchesFrom(ctx, match, filter, fargs, limit, 0)
}

// windowFrom is the doc id from which the newest window matches of terms
// in table start, as their kept counts spread them evenly over the doc ids
// up to last; 0 when they are fewer than the window. Walking the match
// list newest first to find it exactly (OFFSET) was a tenth of a search at
// 100k conversations. An uneven spread only makes the window a little
// longer or shorter; one that names too few conversations is widened
// (saidMatches, titleWindow).
func (db *DB) windowFrom(ctx context.Context, table string, terms []string, window int, last int64) (int64, error) {
	var matches int64
	for _, term := range terms {
		n, err := db.docsSaying(ctx, table, term)
		if err != nil {
			return 0, err
		}
		matches += n
	}
	if matches <= int64(window) {
		return 0, nil
	}
	return max(last-last*int64(window)/matches, 1), nil
}

// lastSearchDoc is the largest search document id (conversations' share
// the ids with the other kinds').
func (db *DB) lastSearchDoc(ctx context.Context) (int64, error) {
	var last int64
	if err := db.queryRow(ctx, `SELECT COALESCE(max(doc_id), 0) FROM search_docs`).Scan(&last); err != nil {
		return 0, fmt.Errorf("text search: %w", err)
	}
	return last, nil
}

func (db *DB) saidMatchesFrom(ctx context.Context, match, filter string, fargs []any, limit int, from int64) ([]saidMatch, error) {
	// No snippet here: making one reads the segment's text, and only the
	// few shown need one (saidSnippets).
	rows, err := db.query(ctx, `SELECT d.doc_id, f.rank, s.doc_id, s.start_s, s.speaker
		FROM segment_fts f JOIN segment_docs s ON s.doc_id = f.rowid
		JOIN conversations c ON c.id = s.conversation_id
		JOIN search_docs d ON d.item_id = s.conversation_id AND d.kind = 'conversation'
		WHERE segment_fts MATCH ? AND f.rowid >= ? AND s.user_id = ? AND `+filter+` ORDER BY f.rank LIMIT ?`,
		append(append([]any{match, from, fargs[0]}, fargs...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("transcript search: %w", err)
	}
	defer rows.Close()
	var out []saidMatch
	for rows.Next() {
		var m saidMatch
		if err := rows.Scan(&m.doc, &m.rank, &m.hit.seg, &m.hit.start, &m.hit.speaker); err != nil {
			return nil, fmt.Errorf("transcript search: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// phraseDepth is how many of its rarest word's newest segments a phrase
// is looked for in, when every word of it is said more often than that.
// A phrase that is not said (a thing and a place, said apart) made FTS5
// read every segment saying both words: at 100k conversations the phrase
// was a sixth of a search's CPU, the most of any one statement. The
// newest 4,096 of its rarest word hold the newest few that are said (the
// n/2 wanted); a phrase all of whose words are that common and that was
// said only before them is ranked by its words alone, like any match
// older than the window.
const phraseDepth = 8 * saidWindow

// phraseFrom is the segment doc id from which a phrase of the query's
// words (terms) is looked for: 0 when one of them is said at most
// phraseDepth times, else where its rarest word's newest phraseDepth
// segments start, as its count spreads them over all the segments (the
// counts are kept: no statement walks the word's list to find it).
func (db *DB) phraseFrom(ctx context.Context, terms []string) (int64, error) {
	rarest := int64(-1)
	for _, term := range terms {
		n, err := db.docsSaying(ctx, "segment_fts", term)
		if err != nil {
			return 0, err
		}
		if rarest < 0 || n < rarest {
			rarest = n
		}
	}
	if rarest <= phraseDepth {
		return 0, nil
	}
	total, err := db.segmentTotal(ctx)
	if err != nil {
		return 0, err
	}
	return max(total-total*phraseDepth/rarest, 0), nil
}

// phraseProbe is how many of a phrase's segments from its bound on are
// read forwards before it is looked for newest first (phraseMatches).
const phraseProbe = 64

// phraseMatches returns the newest segments from doc id from on that say
// phrase, unranked. Read newest first, a phrase nobody said (a thing and
// a place said apart, the commonest costly case) cost FTS5 1.5-3 ms at
// 100k conversations, with a lower bound on the rowid or without; read
// forwards from the bound, 0.2-0.6 ms. So the range is read forwards first, up to phraseProbe
// segments: fewer are all the phrase's, and only those are named; a phrase
// said more often is read newest first, which stops after the first few.
func (db *DB) phraseMatches(ctx context.Context, phrase, filter string, fargs []any, limit int, from int64) ([]saidMatch, error) {
	rows, err := db.query(ctx, `SELECT rowid FROM segment_fts WHERE segment_fts MATCH ? AND rowid >= ? LIMIT ?`,
		phrase, from, phraseProbe)
	if err != nil {
		return nil, fmt.Errorf("transcript search: %w", err)
	}
	var segs []int64
	for rows.Next() {
		var seg int64
		if err := rows.Scan(&seg); err != nil {
			rows.Close()
			return nil, fmt.Errorf("transcript search: %w", err)
		}
		segs = append(segs, seg)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("transcript search: %w", err)
	}
	if len(segs) == 0 {
		return nil, nil
	}
	if len(segs) < phraseProbe {
		return db.segmentRows(ctx, `SELECT d.doc_id, s.doc_id, s.start_s, s.speaker
			FROM json_each(?) j CROSS JOIN segment_docs s ON s.doc_id = j.value
			JOIN conversations c ON c.id = s.conversation_id
			JOIN search_docs d ON d.item_id = s.conversation_id AND d.kind = 'conversation'
			WHERE s.user_id = ? AND `+filter+` ORDER BY s.doc_id DESC LIMIT ?`,
			append(append([]any{idList(segs), fargs[0]}, fargs...), limit)...)
	}
	return db.segmentRows(ctx, `SELECT d.doc_id, s.doc_id, s.start_s, s.speaker
		FROM segment_fts f JOIN segment_docs s ON s.doc_id = f.rowid
		JOIN conversations c ON c.id = s.conversation_id
		JOIN search_docs d ON d.item_id = s.conversation_id AND d.kind = 'conversation'
		WHERE segment_fts MATCH ? AND f.rowid >= ? AND s.user_id = ? AND `+filter+` ORDER BY f.rowid DESC LIMIT ?`,
		append(append([]any{phrase, from, fargs[0]}, fargs...), limit)...)
}

// segmentRows runs a query of segments named by their conversations'
// search documents (doc, segment, start, speaker).
func (db *DB) segmentRows(ctx context.Context, query string, args ...any) ([]saidMatch, error) {
	rows, err := db.query(ctx, query, args...)
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
		out = append(out, m)
	}
	return out, rows.Err()
}

// conversationFilter is the query's filters on the conversation c (its
// document d), as SQL and its arguments; the user's id is the first.
func conversationFilter(userID string, q appliance.SearchQuery) (string, []any) {
	where, args := []string{"c.user_id = ?", "c.deleted = 0"}, []any{userID}
	where, args = timeBound(where, args, "COALESCE(c.started_at, c.created_at) >= ?", q.Since)
	where, args = timeBound(where, args, "COALESCE(c.started_at, c.created_at) <= ?", q.Until)
	if q.Category != "" {
		where, args = append(where, "c.category = ?"), append(args, q.Category)
	}
	if q.FolderID != "" {
		where, args = append(where, "c.folder_id = ?"), append(args, q.FolderID)
	}
	if q.Starred != nil {
		where, args = append(where, "c.starred = ?"), append(args, *q.Starred)
	}
	if q.Person != "" {
		where = append(where, `EXISTS (SELECT 1 FROM segment_docs p WHERE p.conversation_id = c.id
			AND (p.person_id = ? OR p.speaker = ? COLLATE NOCASE))`)
		args = append(args, q.Person, q.Person)
	}
	return strings.Join(where, " AND "), args
}

// filtersConversations reports whether the query has a filter only the
// conversation's row can answer.
func filtersConversations(q appliance.SearchQuery) bool {
	return q.Kind == appliance.KindConversation &&
		(q.Category != "" || q.FolderID != "" || q.Starred != nil || q.Person != "")
}

// ftsPhrase is the query's words as one FTS5 phrase (stop words kept: a
// phrase is said with them), or "" for a single word.
func ftsPhrase(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) < 2 {
		return ""
	}
	if len(words) > maxQueryTerms {
		words = words[:maxQueryTerms]
	}
	return `"` + strings.Join(words, " ") + `"`
}
