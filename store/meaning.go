package store

import (
	"context"
	"database/sql"
	"fmt"
)

// textNudge is how much the best text match adds to a similarity when a
// memory's two retrievers are fused (fuseByMeaning); a match scoring half
// the best adds half of it.
//
// Reciprocal rank fusion gave a text match that shares little meaning
// with the query as much weight as the nearest vector: on three sets of
// 10k memories (BenchmarkVectorRecall100k, store/recall_sets_test.go) the
// hybrid kept 0.48-0.90 of the exact top-10 by similarity. A memory's
// words and its vector describe the same one or two sentences, so the
// similarity ranks and the words' BM25 breaks its near-ties and lifts a
// match close behind. The hybrid kept of the exact top-10 (word soup,
// templates, repeats): 0.86/0.82/0.95 with 0.05, 0.89/0.88/0.96 with
// 0.03, 0.91/0.92/0.97 with 0.02; the relevance set
// (appliance/search TestRelevanceFloor) is at 1.000/1.000 with each.
const textNudge = 0.02

// tieStep orders equal similarities by the vector retriever's rank: far
// below any difference a float32 dot product can tell.
const tieStep = 1e-12

// fuseByMeaning scores the candidates of a search whose text is short and
// whose vector was embedded from that same text (every kind but a
// conversation, whose vector holds only its title and overview and whose
// words include everything said): exact similarity to the query, plus
// textNudge times the share of the best BM25 score a text match has. Text
// matches the vector retriever did not propose are scored by their own
// vectors; one with no vector yet (still being embedded) by its words
// alone, below every similarity.
func (db *DB) fuseByMeaning(ctx context.Context, scores map[int64]float64, text []int64, textScore map[int64]float64,
	vec []int64, sims map[int64]float64, q []float32) error {
	var missing []int64
	for _, id := range text {
		if _, ok := sims[id]; !ok {
			missing = append(missing, id)
		}
	}
	if err := db.exactSims(ctx, missing, q, sims); err != nil {
		return err
	}
	best := 0.0
	for _, s := range textScore {
		best = max(best, s)
	}
	// Equal similarities (copies of one note) keep the vector
	// retriever's order, nearest then oldest, rather than the ids'.
	for rank, id := range vec {
		scores[id] = sims[id] - tieStep*float64(rank)
	}
	for _, id := range text {
		nudge := 0.0
		if best > 0 {
			nudge = textNudge * textScore[id] / best
		}
		if _, ok := scores[id]; ok {
			scores[id] += nudge
		} else if sim, ok := sims[id]; ok {
			scores[id] = sim + nudge
		} else {
			scores[id] = nudge - 1 // below any cosine
		}
	}
	return nil
}

// exactSims adds to sims the similarity of each of the documents ids to
// q, from their stored vectors of the current model.
func (db *DB) exactSims(ctx context.Context, ids []int64, q []float32, sims map[int64]float64) error {
	if len(ids) == 0 {
		return nil
	}
	model, _ := db.vectors.get()
	rows, err := db.query(ctx, `SELECT doc_id, embedding FROM search_vectors
		WHERE doc_id IN (SELECT value FROM json_each(?)) AND model = ?`, idList(ids), model)
	if err != nil {
		return fmt.Errorf("rescore: %w", err)
	}
	defer rows.Close()
	var emb sql.RawBytes
	for rows.Next() {
		var doc int64
		if err := rows.Scan(&doc, &emb); err != nil {
			return fmt.Errorf("rescore: %w", err)
		}
		sims[doc] = dotBlob(emb, q)
	}
	return rows.Err()
}
