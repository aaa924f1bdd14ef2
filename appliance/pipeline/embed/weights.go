package embed

import (
	"math"
	"strings"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// unknownRank is the rank given to words missing from wordRankList: about
// where a typical unlisted word would fall in a full frequency list.
const unknownRank = 10000

// minIDF keeps the most common words (used only in stop-word-only texts)
// from weighing nothing.
const minIDF = 0.05

// stemIDF maps a stem to its IDF-like weight in (0, 1), unknown stems
// weighing 1. It is keyed by stem so that every inflection of a word, which
// share one word feature, also share one weight.
//
// Why a static prior rather than IDF learned from the user's own data: a
// stored vector must never change, but corpus IDF drifts with every new
// memory, and the appliance starts with no corpus at all. Zipf's law makes
// document frequency roughly proportional to 1/rank, so IDF = log(N/df) is
// roughly a + log(rank): a fixed rank list gives a fixed, reasonable IDF.
//
// Built on first use, not at start-up (see conceptsOf).
var stemIDF = sync.OnceValue(func() map[string]float64 { return buildIDF(wordRankList) })

func buildIDF(list string) map[string]float64 {
	words := strings.Fields(list)
	m := make(map[string]float64, len(words))
	for rank, w := range words {
		st := string(lexicon.AppendStem(nil, []byte(w)))
		if _, ok := m[st]; !ok { // first (most frequent) inflection wins
			m[st] = rankIDF(rank)
		}
	}
	return m
}

func rankIDF(rank int) float64 {
	return max(minIDF, math.Log(float64(rank+2))/math.Log(unknownRank+2))
}

// idfOf returns the weight of a stem.
func idfOf(st []byte) float64 {
	if w, ok := stemIDF()[string(st)]; ok {
		return w
	}
	return 1
}
