package pipeline

import (
	"github.com/hearth-appliance/hearth/appliance"
)

// Fixed discard rules, the reference's rules tier, applied before any
// extractor.
const (
	// keepWordCount: longer transcripts are always kept; the extractor is
	// never asked.
	keepWordCount = 100
	// fillerOnlyMaxTokens: a run of only filler and function words up to this
	// long is discarded without the extractor; longer ones might still hold
	// something and go to the extractor.
	fillerOnlyMaxTokens = 25
)

// answerWords are not filler even though they carry no topic: a bare "yes"
// or "no" answers something, so the extractor decides.
var answerWords = wordSet(`yes no nope yep`)

// fillerOnly reports a short transcript made only of fillers ("okay",
// "hmm yeah", "thanks bye"), function words and CJK backchannels (嗯, 好的,
// 对). Digits and capitalised name homographs ("May", "Will") protect it.
func fillerOnly(d *document) bool {
	latin := 0
	for _, t := range d.tokens {
		if t.cjk {
			if _, ok := cjkFillerRunes[firstRune(t.lower)]; !ok {
				return false
			}
			continue
		}
		latin++
		if latin > fillerOnlyMaxTokens || inSet(answerWords, t.lower) || inSet(capitalisedHomographs, t.surface) {
			return false
		}
		if !isFiller(t.lower) && !inSet(stopWords, t.lower) {
			return false
		}
	}
	return len(d.tokens) > 0
}

// hasPhotoDescription: an empty transcript with described photos is not
// empty to the reference; the extractor decides.
func hasPhotoDescription(c *appliance.Conversation) bool {
	for _, p := range c.Photos {
		if p.Description != "" && !p.Discarded {
			return true
		}
	}
	return false
}
