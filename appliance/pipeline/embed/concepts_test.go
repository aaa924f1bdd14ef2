package embed

import (
	"strings"
	"testing"
)

// TestConceptTable checks that every entry of the table can match a word:
// the tokeniser splits on anything but letters and digits, so an entry with
// a hyphen or a capital would never be looked up.
func TestConceptTable(t *testing.T) {
	t.Parallel()
	words := map[string]bool{}
	for line := range strings.Lines(conceptTable) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) < 3 {
			t.Errorf("class %q has fewer than two words", line)
		}
		for _, w := range fields[1:] {
			for _, r := range w {
				if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
					t.Errorf("class %s: entry %q can never match a token", fields[0], w)
					break
				}
			}
			words[w] = true
		}
	}
	if len(words) < 1500 {
		t.Errorf("%d words in the table, want ≥ 1500", len(words))
	}
}

// TestConceptsJoinParaphrases checks that words of one meaning class bring
// texts with no word in common above the relevance floor (where a search
// keeps a hit found by meaning alone) and clearly above an unrelated text.
// A text sharing a word with the query may still come closer ("my
// performance review" for "my kid's music performance"): the classes add
// meaning to the words, they do not outvote them.
func TestConceptsJoinParaphrases(t *testing.T) {
	t.Parallel()
	const unrelated = "Our mortgage rate is fixed until 2028"
	tests := []struct{ query, near string }{
		{"my kid's music performance", "Emma's piano recital is on Saturday"},
		{"who repairs the dripping tap", "The landlord agreed to fix the leaking kitchen faucet"},
		{"collect medicine from the chemist", "Pick up my prescription from the pharmacy"},
		{"cut the grass at the weekend", "Mow the lawn on Saturday"},
		{"my sibling's wedding in Portugal", "My sister is getting married in June in Lisbon"},
	}
	for _, tt := range tests {
		v := mustEmbed(t, tt.query, tt.near, unrelated)
		near, far := cosine(v[0], v[1]), cosine(v[0], v[2])
		t.Logf("%-40q near %.3f unrelated %.3f", tt.query, near, far)
		if near < MinSimilarity || near < far+0.15 {
			t.Errorf("cosine(%q, %q) = %.3f: under the floor %.2f or not clearly above %.3f for an unrelated text", tt.query, tt.near, near, MinSimilarity, far)
		}
	}
}
