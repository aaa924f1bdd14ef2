package pipeline

import "github.com/hearth-appliance/hearth/appliance"

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
