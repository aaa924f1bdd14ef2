package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// What the pipeline's own rules read of a transcript's words: its fixed
// discard rules (appliance/pipeline/rules.go holds them and their bounds)
// and the title of a conversation that must be kept.

// answerWords are not filler even though they carry no topic: a bare "yes"
// or "no" answers something, so the extractor decides.
var answerWords = lexicon.NewSet(`yes no nope yep`)

// FillerOnly reports whether a transcript of at most maxTokens Latin-script
// tokens is made only of fillers ("okay", "hmm yeah", "thanks bye"),
// function words and CJK backchannels (嗯, 好的, 对); digits and
// capitalised name homographs ("May", "Will") protect it. empty reports a
// transcript with no words at all. The pipeline's fixed discard rules read
// both before any extractor is asked.
func FillerOnly(segs []appliance.TranscriptSegment, maxTokens int) (fillerOnly, empty bool) {
	d := parseSegmentsPooled(segs) // every create asks, before any extractor
	defer d.release()
	return fillerOnlyDoc(d, maxTokens), len(d.tokens) == 0
}

func fillerOnlyDoc(d *document, maxTokens int) bool {
	latin := 0
	for _, t := range d.tokens {
		if t.cjk {
			if _, ok := cjkFillerRunes[firstRune(t.lower)]; !ok {
				return false
			}
			continue
		}
		latin++
		if latin > maxTokens || inSet(answerWords, t.lower) || inSet(capitalisedHomographs, t.surface) {
			return false
		}
		if !isFiller(t.lower) && !inSet(stopWords, t.lower) {
			return false
		}
	}
	return len(d.tokens) > 0
}

// utteranceMaxWords bounds a title made from the words themselves.
const utteranceMaxWords = 6

// UtteranceTitle is the first few words of the transcript in Title Case,
// for conversations that must be kept but have no topic to extract.
func UtteranceTitle(segs []appliance.TranscriptSegment) string {
	d := parseSegments(segs)
	n := min(len(d.tokens), utteranceMaxWords)
	words := make([]string, 0, n)
	for _, t := range d.tokens[:n] {
		words = append(words, d.texts[t.seg][t.start:t.end])
	}
	return titleCase(words)
}

// UtteranceOverview is the transcript itself, bounded, as the overview of a
// conversation too short to summarise.
func UtteranceOverview(segs []appliance.TranscriptSegment) string {
	text := strings.Join(strings.Fields(JoinSegments(segs)), " ")
	if r := []rune(text); len(r) > maxOverviewRunes {
		text = string(r[:maxOverviewRunes-1]) + "…"
	}
	return text
}
