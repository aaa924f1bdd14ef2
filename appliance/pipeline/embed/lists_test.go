package embed

import (
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

func TestWordRankList(t *testing.T) {
	t.Parallel()
	words := strings.Fields(wordRankList)
	if len(words) < 2000 {
		t.Errorf("%d words, want at least 2000", len(words))
	}
	seen := map[string]int{}
	for i, w := range words {
		if j, ok := seen[w]; ok {
			t.Errorf("%q at ranks %d and %d", w, j, i)
		}
		seen[w] = i
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			t.Errorf("%q is not a lower-case ASCII word", w)
		}
	}
}

func TestIDF(t *testing.T) {
	t.Parallel()
	// Common words weigh less; unknown words weigh most; inflections share
	// their stem's weight.
	order := []string{"time", "budget", "piano"}
	prev := 0.0
	for _, w := range order {
		got := idfOf(lexicon.AppendStem(nil, []byte(w)))
		if got <= prev {
			t.Errorf("idf(%q) = %.3f, not above the previous word's %.3f", w, got, prev)
		}
		prev = got
	}
	if idfOf([]byte("zzzqx")) != 1 {
		t.Error("unknown word does not weigh 1")
	}
	if a, b := idfOf(lexicon.AppendStem(nil, []byte("families"))), idfOf(lexicon.AppendStem(nil, []byte("family"))); a != b {
		t.Errorf("families %.3f, family %.3f", a, b)
	}
}
