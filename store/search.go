package store

import (
	"context"
	"fmt"
	"sort"
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
	// oversample: sign-bit KNN fetches this many more candidates than it
	// keeps, and exact cosine on the full vectors reorders them. 384 sign
	// bits rank coarsely; 8× recovers the float ranking's top results.
	oversample    = 8
	maxCandidates = 400
	maxQueryTerms = 24
)

// Search implements appliance.SearchIndex: BM25 over FTS5 and cosine KNN
// over sqlite-vec (binary quantization with exact rescoring), fused by
// reciprocal rank. Both retrievers are scoped to the user and the kind.
func (db *DB) Search(ctx context.Context, userID string, q appliance.SearchQuery) ([]appliance.SearchHit, error) {
	limit := limitOr(q.Limit, 10)
	want := min(limit*candidatesPerResult, maxCandidates)
	text, err := db.textCandidates(ctx, userID, q, want)
	if err != nil {
		return nil, err
	}
	vec, sims, err := db.vectorCandidates(ctx, userID, q, want)
	if err != nil {
		return nil, err
	}
	scores := map[string]float64{}
	for _, list := range [][]string{text, vec} {
		for rank, id := range list {
			scores[id] += 1.0 / float64(rrfK+rank+1)
		}
	}
	hits := make([]appliance.SearchHit, 0, len(scores))
	for id, s := range scores {
		hits = append(hits, appliance.SearchHit{ItemID: id, Score: s, Similarity: sims[id]})
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

func (db *DB) textCandidates(ctx context.Context, userID string, q appliance.SearchQuery, n int) ([]string, error) {
	match := ftsQuery(q.Text)
	if match == "" {
		return nil, nil
	}
	where, args := []string{"search_fts MATCH ?", "d.user_id = ?", "d.kind = ?"}, []any{match, userID, q.Kind}
	where, args = timeBound(where, args, "d.at >= ?", q.Since)
	where, args = timeBound(where, args, "d.at <= ?", q.Until)
	rows, err := db.query(ctx, `SELECT d.item_id FROM search_fts JOIN search_docs d ON d.doc_id = search_fts.rowid
		WHERE `+strings.Join(where, " AND ")+` ORDER BY search_fts.rank LIMIT ?`, append(args, n)...)
	if err != nil {
		return nil, fmt.Errorf("text search: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("text search: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func (db *DB) vectorCandidates(ctx context.Context, userID string, q appliance.SearchQuery, n int) ([]string, map[string]float64, error) {
	model, dims := db.vectors.get()
	if q.Vector == nil || q.Model != model || len(q.Vector) != dims {
		return nil, nil, nil
	}
	blob := encodeVector(q.Vector)
	k := min(n*oversample, 4096)
	rows, err := db.query(ctx, `SELECT doc_id FROM `+bqTable(dims)+`
		WHERE embedding MATCH vec_quantize_binary(?) AND k = ? AND user_id = ? AND kind = ?`, blob, k, userID, q.Kind)
	if err != nil {
		return nil, nil, fmt.Errorf("vector search: %w", err)
	}
	var docIDs []any
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("vector search: %w", err)
		}
		docIDs = append(docIDs, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(docIDs) == 0 {
		return nil, nil, err
	}
	where, args := []string{"v.doc_id IN (" + placeholders(len(docIDs)) + ")", "v.model = ?"}, append(docIDs, model)
	where, args = timeBound(where, args, "d.at >= ?", q.Since)
	where, args = timeBound(where, args, "d.at <= ?", q.Until)
	rows, err = db.reader.QueryContext(ctx, `SELECT d.item_id, v.embedding FROM search_vectors v JOIN search_docs d ON d.doc_id = v.doc_id
		WHERE `+strings.Join(where, " AND "), args...)
	if err != nil {
		return nil, nil, fmt.Errorf("rescore: %w", err)
	}
	defer rows.Close()
	type scored struct {
		id  string
		sim float64
	}
	var all []scored
	for rows.Next() {
		var id string
		var emb []byte
		if err := rows.Scan(&id, &emb); err != nil {
			return nil, nil, fmt.Errorf("rescore: %w", err)
		}
		all = append(all, scored{id, dotBlob(emb, q.Vector)})
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("rescore: %w", err)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].sim > all[j].sim })
	if len(all) > n {
		all = all[:n]
	}
	ids, sims := make([]string, len(all)), make(map[string]float64, len(all))
	for i, s := range all {
		ids[i], sims[s.id] = s.id, s.sim
	}
	return ids, sims, nil
}

// ftsQuery turns free text into an FTS5 query: each word quoted (so no
// user input is FTS syntax), OR-ed, so that BM25 ranks documents matching
// more of the words higher.
func ftsQuery(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	seen := map[string]bool{}
	var terms []string
	for _, w := range words {
		if seen[w] || len(terms) == maxQueryTerms {
			continue
		}
		seen[w] = true
		terms = append(terms, `"`+w+`"`)
	}
	return strings.Join(terms, " OR ")
}
