package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/hearth-appliance/hearth/appliance"
)

// Search tuning.
const (
	// rrfK is the constant of reciprocal rank fusion (Cormack et al.); 60 is
	// the usual choice and makes the fusion insensitive to score scales.
	rrfK = 60
	// candidatesPerResult: each retriever contributes this many candidates
	// per wanted result before fusion.
	candidatesPerResult = 4
	// conversationCandidatesPerResult is candidatesPerResult for a
	// conversation search, whose text candidates each cost a segment
	// named and joined to its conversation, and a phrase's segments more:
	// two per result held the labelled set's figures
	// (hearth-bench -scenarios transcript-search) and cut a search's CPU.
	conversationCandidatesPerResult = 2
	// knnPerResult and minKNN size the sign-bit KNN: it keeps this many
	// candidates, and exact cosine on the full vectors reorders them. The
	// candidates are a Hamming shortlist re-ranked by the float query
	// (knnrefine.go): 8 per result keep 97.8 % of the exact top-10 at 10k
	// memories (TestSearch_VectorRecall) and 96.3 % at 100k; by Hamming
	// distance alone 10 kept 91 % and 92 %. Each candidate costs a read of
	// its float vector. (The KNN is ours; see knn.go for why not
	// sqlite-vec's MATCH.)
	knnPerResult  = 8
	minKNN        = 32
	maxCandidates = 400
	maxQueryTerms = 24
	// textWindow bounds BM25's work. FTS5 scores every document a query
	// matches before it can sort them, so a common word over a year of
	// memories (thousands of matches) cost tens of milliseconds and grew
	// with the database. The text retriever ranks the newest textWindow
	// matches first (finding where they start walks the match list in
	// rowid order without scoring it: well under a millisecond), then
	// eight and sixty-four times as many, and all of them only when those
	// yield too few for the user asked (the index knows each document's
	// kind, so other kinds' matches never fill the window: migration
	// 0021): a
	// rare word still finds the oldest document, and a common one ranks the
	// recent ones (older ones stay reachable by meaning, through the vector
	// retriever, which sees every document). 256 of one kind is over three
	// times the most candidates a memory search asks of it (four per
	// result, at most 20 results), and a larger ask widens it as above; it
	// was 1024 when other kinds' matches shared the window. BenchmarkSearchMemoriesMCP10k p50: 2.41–2.44 ms with 1024,
	// 1.85–1.94 ms with 256.
	textWindow = 256
)

// Search implements appliance.SearchIndex: BM25 over FTS5 and cosine KNN
// over sqlite-vec (binary quantization with exact rescoring), fused by
// reciprocal rank for conversations and by similarity with a text nudge
// for the other kinds (meaning.go). Both retrievers are scoped to the user
// and the kind.
func (db *DB) Search(ctx context.Context, userID string, q appliance.SearchQuery) ([]appliance.SearchHit, error) {
	limit := limitOr(q.Limit, 10)
	perResult := candidatesPerResult
	if q.Kind == appliance.KindConversation {
		perResult = conversationCandidatesPerResult
	}
	want := min(limit*perResult, maxCandidates)
	// A search alone runs its two retrievers on two connections at once,
	// and takes as long as the slower of them, not both. Among other
	// searches the cores are busy anyway: one after the other on this
	// goroutine, a search spares a goroutine, its wake-ups and the wait
	// for a second read connection. Both answer with document ids; only
	// the fused hits are named, not every candidate.
	alone := db.searches.Add(1) == 1
	defer db.searches.Add(-1)
	var text []int64
	var textScore map[int64]float64
	var said map[int64]saidHit
	textDone := make(chan error, 1)
	findText := func() {
		var err error
		if q.Kind == appliance.KindConversation {
			text, said, err = db.conversationText(ctx, userID, q, want)
		} else {
			text, textScore, err = db.textCandidates(ctx, userID, q, want)
		}
		textDone <- err
	}
	if alone {
		go findText()
	} else {
		findText()
	}
	vq := q
	vq.Limit = limit
	vec, sims, vecErr := db.vectorCandidates(ctx, userID, searchQuery(vq), want)
	if err := <-textDone; err != nil {
		return nil, err
	}
	if vecErr != nil {
		return nil, vecErr
	}
	// The relevance floor: a neighbour by meaning alone must be close
	// enough; one the text search also found is kept whatever its distance.
	inText := make(map[int64]bool, len(text))
	for _, id := range text {
		inText[id] = true
	}
	if q.MinSimilarity > 0 {
		kept := vec[:0:0]
		for _, id := range vec {
			if inText[id] || sims[id] >= q.MinSimilarity {
				kept = append(kept, id)
			}
		}
		vec = kept
	}
	scores := map[int64]float64{}
	if textScore != nil && len(vec) > 0 {
		// A memory's words and its vector describe the same short text:
		// one score (meaning.go).
		if err := db.fuseByMeaning(ctx, scores, text, textScore, vec, sims, q.Vector); err != nil {
			return nil, err
		}
	} else {
		for _, list := range [][]int64{text, vec} {
			for rank, id := range list {
				scores[id] += 1.0 / float64(rrfK+rank+1)
			}
		}
	}
	type fused struct {
		doc   int64
		score float64
	}
	ranked := make([]fused, 0, len(scores))
	for doc, s := range scores {
		ranked = append(ranked, fused{doc, s})
	}
	sort.Slice(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	// Named: the first limit, and any tied with the last of them, since a
	// tie is broken by the record's id.
	if len(ranked) > limit {
		cut := limit
		for cut < len(ranked) && ranked[cut].score == ranked[limit-1].score {
			cut++
		}
		ranked = ranked[:cut]
	}
	docs := make([]int64, len(ranked))
	for i, f := range ranked {
		docs[i] = f.doc
	}
	names, err := db.itemIDs(ctx, docs)
	if err != nil {
		return nil, err
	}
	// Snippets only for the hits kept, and only when they are shown:
	// making one reads its segment.
	if !q.NoSnippets {
		if err := db.saidSnippets(ctx, docs, said, q.Text); err != nil {
			return nil, err
		}
	}
	hits := make([]appliance.SearchHit, 0, len(ranked))
	for _, f := range ranked {
		if id, ok := names[f.doc]; ok { // gone since it was found
			sh := said[f.doc]
			hits = append(hits, appliance.SearchHit{ItemID: id, Score: f.score, Similarity: sims[f.doc],
				Snippet: sh.snippet, Start: sh.start, Speaker: sh.speaker})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ItemID < hits[j].ItemID
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

func (db *DB) textCandidates(ctx context.Context, userID string, q appliance.SearchQuery, n int) ([]int64, map[int64]float64, error) {
	match := ftsQuery(q.Text)
	if match == "" {
		return nil, nil, nil
	}
	table, ok := textIndex[q.Kind]
	if !ok {
		return nil, nil, fmt.Errorf("text search: unknown kind %q", q.Kind)
	}
	if err := db.textCaughtUp(ctx); err != nil {
		return nil, nil, err
	}
	// The window grows eightfold while it yields too few for this user
	// (the newest matches may be another user's).
	for window := textWindow; window <= textWindow<<6; window <<= 3 {
		var from int64
		err := db.queryRow(ctx, `SELECT rowid FROM `+table+` WHERE `+table+` MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`,
			match, window-1).Scan(&from)
		if errors.Is(err, sql.ErrNoRows) {
			break // fewer matches than the window: rank them all
		}
		if err != nil {
			return nil, nil, fmt.Errorf("text search: %w", err)
		}
		ids, scores, err := db.rankText(ctx, table, userID, q, match, n, from)
		if err != nil || len(ids) >= n {
			return ids, scores, err
		}
	}
	return db.rankText(ctx, table, userID, q, match, n, 0)
}

// rankText returns the n best BM25 matches in the kind's index among
// documents from doc id from on (0: all of them), best first, with their
// scores (higher is better).
func (db *DB) rankText(ctx context.Context, table, userID string, q appliance.SearchQuery, match string, n int, from int64) ([]int64, map[int64]float64, error) {
	where, args := []string{table + " MATCH ?", "f.rowid >= ?", "d.user_id = ?"}, []any{match, from, userID}
	where, args = timeBound(where, args, "d.at >= ?", q.Since)
	where, args = timeBound(where, args, "d.at <= ?", q.Until)
	rows, err := db.query(ctx, `SELECT d.doc_id, f.rank FROM `+table+` f JOIN search_docs d ON d.doc_id = f.rowid
		WHERE `+strings.Join(where, " AND ")+` ORDER BY f.rank LIMIT ?`, append(args, n)...)
	if err != nil {
		return nil, nil, fmt.Errorf("text search: %w", err)
	}
	defer rows.Close()
	var ids []int64
	scores := map[int64]float64{}
	for rows.Next() {
		var id int64
		var rank float64
		if err := rows.Scan(&id, &rank); err != nil {
			return nil, nil, fmt.Errorf("text search: %w", err)
		}
		ids = append(ids, id)
		scores[id] = -rank // bm25() is lower for better matches
	}
	return ids, scores, rows.Err()
}

// searchQuery adds helpers to the domain's query.
type searchQuery appliance.SearchQuery

func (q searchQuery) limitOrDefault() int { return limitOr(q.Limit, 10) }

func (db *DB) vectorCandidates(ctx context.Context, userID string, q searchQuery, n int) ([]int64, map[int64]float64, error) {
	model, dims := db.vectors.get()
	if q.Vector == nil || q.Model != model || len(q.Vector) != dims {
		return nil, nil, nil
	}
	// Twice the candidates kept are rescored (knnPerResult per result
	// when four are kept per result); a conversation search keeps two
	// per result, and each one rescored is a float vector read.
	k := min(max(q.limitOrDefault()*knnPerResult, minKNN), 4096)
	if q.Kind == appliance.KindConversation {
		k = min(max(2*n, minKNN), 4096)
	}
	docIDs, err := db.knnRefined(ctx, dims, userID+"\x1f"+q.Kind, q.Vector, k)
	if err != nil || len(docIDs) == 0 {
		return nil, nil, err
	}
	// Exact scores from the float vectors alone (one row lookup each);
	// only the n kept are then named. A time bound needs each document's
	// date, so it reads the documents too.
	where, args := []string{"v.doc_id IN (SELECT value FROM json_each(?))", "v.model = ?"}, []any{idList(docIDs), model}
	from := `search_vectors v`
	if filtersConversations(appliance.SearchQuery(q)) {
		// The conversation's own filters, on its row.
		filter, fargs := conversationFilter(userID, appliance.SearchQuery(q))
		from = `search_vectors v JOIN search_docs d ON d.doc_id = v.doc_id JOIN conversations c ON c.id = d.item_id`
		where, args = append(where, filter), append(args, fargs...)
	} else if q.Since != nil || q.Until != nil {
		from = `search_vectors v JOIN search_docs d ON d.doc_id = v.doc_id`
		where, args = timeBound(where, args, "d.at >= ?", q.Since)
		where, args = timeBound(where, args, "d.at <= ?", q.Until)
	}
	rows, err := db.query(ctx, `SELECT v.doc_id, v.embedding FROM `+from+` WHERE `+strings.Join(where, " AND "), args...)
	if err != nil {
		return nil, nil, fmt.Errorf("rescore: %w", err)
	}
	type scored struct {
		doc int64
		sim float64
	}
	var all []scored
	var emb sql.RawBytes // read in place: the vector is only scored
	for rows.Next() {
		var doc int64
		if err := rows.Scan(&doc, &emb); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("rescore: %w", err)
		}
		all = append(all, scored{doc, dotBlob(emb, q.Vector)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("rescore: %w", err)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].sim != all[j].sim {
			return all[i].sim > all[j].sim
		}
		return all[i].doc < all[j].doc
	})
	if len(all) > n {
		all = all[:n]
	}
	ids, sims := make([]int64, len(all)), make(map[int64]float64, len(all))
	for i, s := range all {
		ids[i], sims[s.doc] = s.doc, s.sim
	}
	return ids, sims, nil
}

// itemIDs names the records of search documents.
func (db *DB) itemIDs(ctx context.Context, docIDs []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(docIDs))
	if len(docIDs) == 0 {
		return out, nil
	}
	rows, err := db.query(ctx, `SELECT doc_id, item_id FROM search_docs WHERE doc_id IN (SELECT value FROM json_each(?))`, idList(docIDs))
	if err != nil {
		return nil, fmt.Errorf("name search documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc int64
		var id string
		if err := rows.Scan(&doc, &id); err != nil {
			return nil, fmt.Errorf("name search documents: %w", err)
		}
		out[doc] = id
	}
	return out, rows.Err()
}

// idList is ids as one JSON array: the statement text is the same for any
// number of ids and stays prepared.
func idList(ids []int64) string {
	list := make([]byte, 0, 8*len(ids))
	list = append(list, '[')
	for i, id := range ids {
		if i > 0 {
			list = append(list, ',')
		}
		list = strconv.AppendInt(list, id, 10)
	}
	return string(append(list, ']'))
}

// ftsQuery turns free text into an FTS5 query: each word quoted (so no
// user input is FTS syntax), OR-ed, so that BM25 ranks documents matching
// more of the words higher. Stop words are left out when anything else is
// left: they match most documents, rank nothing, and scoring every
// document they match is what makes a text search slow.
func ftsQuery(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	content := words[:0:0]
	for _, w := range words {
		if w = strings.Trim(w, "'"); w != "" && !stopWords[w] {
			content = append(content, w)
		}
	}
	if len(content) > 0 {
		words = content
	}
	seen := map[string]bool{}
	var terms []string
	for _, w := range words {
		w = strings.ReplaceAll(w, "'", "")
		if w == "" || seen[w] || len(terms) == maxQueryTerms {
			continue
		}
		seen[w] = true
		terms = append(terms, `"`+w+`"`)
	}
	return strings.Join(terms, " OR ")
}

// stopWords are English function words; see ftsQuery.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because been
		before being below between both but by can could did do does doing down during each few for from further had
		has have having he her here hers herself him himself his how i if in into is it its itself just me more most
		my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some
		such than that the their theirs them themselves then there these they this those through to too under until
		up very was we were what when where which while who whom why will with would you your yours yourself
		yourselves what's i'm i've don't didn't it's that's`) {
		m[w] = true
	}
	return m
}()
