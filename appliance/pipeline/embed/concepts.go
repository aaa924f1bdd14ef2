package embed

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// conceptScale weighs a word's meaning classes against the word itself.
// The classes are what lets "my kid's music performance" find "Emma's
// piano recital" with no word in common. Measured on the paraphrase set
// (testdata/paraphrase, with the table's first 156 classes) at 0.8, 1.0,
// 1.2, 1.6 and 2.0: 23, 38, 42, 45, 45 of 50 in the top 5; past 1.2 the
// labelled relevance set (appliance/search) starts returning a wrong
// neighbour above the floor, as a shared class outweighs a shared word.
const conceptScale = 1.2

// loneWordConceptScale replaces conceptScale in a text of one content word,
// which is a search for that word: "dentist" should find what mentions a
// dentist before what is merely about health. On cmd/hearth-bench's
// labelled transcript set (with the first 156 classes), one-word queries'
// precision@5 was 0.790 at the full scale, 0.910 at 0.5 and 0.969 at 0.3
// and at 0, recall unchanged; at 0 the labelled relevance set
// (appliance/search) lost "allergies" → "I am allergic to penicillin"
// under the floor, which 0.3 keeps.
const loneWordConceptScale = 0.3

// conceptsOf maps a stem to the hashes of its meaning classes
// (conceptTable). Built on first use, not at start-up: building it took
// ~0.5 ms and 10k allocations before the appliance's main could run.
var conceptsOf = sync.OnceValue(func() map[string][]uint64 { return buildConcepts(conceptTable) })

func buildConcepts(table string) map[string][]uint64 {
	m := make(map[string][]uint64)
	for line := range strings.Lines(table) {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		h := uint64(newHasher(kindConcept).bytes([]byte(fields[0])))
		for _, w := range fields[1:] {
			st := string(lexicon.AppendStem(nil, []byte(w)))
			if !slices.Contains(m[st], h) {
				m[st] = append(m[st], h)
			}
		}
	}
	return m
}

// concepts adds the meaning classes of stem st with a total weight.
// A word in several classes shares it among them, so a polysemous word
// ("play", "service") says less about each.
func (s *scratch) concepts(st []byte, weight float64) {
	cs := conceptsOf()[string(st)]
	if len(cs) == 0 || weight == 0 {
		return
	}
	each := weight / math.Sqrt(float64(len(cs)))
	for _, h := range cs {
		s.add(hasher(h), each)
	}
}
