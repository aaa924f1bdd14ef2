package listen

import (
	"fmt"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/punctuate"
)

// wordsToSegments groups consecutive words of one speaker into a segment,
// shifted by offset seconds (the stream's start within the conversation).
func wordsToSegments(words []stt.Word, offset float64, provider string) []appliance.TranscriptSegment {
	var out []appliance.TranscriptSegment
	for _, w := range words {
		text := strings.TrimSpace(w.Text)
		if text == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].SpeakerID == w.Speaker {
			out[n-1].Text += " " + text
			out[n-1].End = w.End + offset
			continue
		}
		out = append(out, segment(text, w.Speaker, w.Start+offset, w.End+offset, provider))
	}
	return out
}

func segment(text string, speaker int, start, end float64, provider string) appliance.TranscriptSegment {
	s := appliance.TranscriptSegment{Text: text, Speaker: fmt.Sprintf("SPEAKER_%02d", speaker), SpeakerID: speaker,
		Start: start, End: end, Translations: []appliance.Translation{}}
	if provider != "" {
		p := provider
		s.STTProvider = &p
	}
	return s
}

// Merging, as the reference's combine_segments does: a segment joins the
// one before it when both are the same speaker (or both the user's), were
// identified the same way, came from the same provider, follow within 3 s,
// and the first is short or has no sentence end; or when the first ends
// mid-sentence and the second starts in lower case.
const (
	mergeGap   = 3.0
	shortChars = 125
)

func canMerge(a, b appliance.TranscriptSegment) bool {
	if provider(a) != provider(b) || a.SpeechProfileProcessed != b.SpeechProfileProcessed {
		return false
	}
	if b.Start-a.End >= mergeGap {
		return false
	}
	same := a.SpeakerID == b.SpeakerID || (a.IsUser && b.IsUser)
	if same && (len([]rune(a.Text)) < shortChars || !endsSentence(a.Text)) {
		return true
	}
	return !endsSentence(a.Text) && startsLower(b.Text) && same
}

func provider(s appliance.TranscriptSegment) string {
	if s.STTProvider == nil {
		return ""
	}
	return *s.STTProvider
}

func endsSentence(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	r := []rune(s)
	return strings.ContainsRune(".?!。？！؟।", r[len(r)-1])
}

func startsLower(s string) bool {
	for _, r := range strings.TrimSpace(s) {
		return r >= 'a' && r <= 'z'
	}
	return false
}

func join(a, b appliance.TranscriptSegment) appliance.TranscriptSegment {
	a.Text = cleanText(a.Text + " " + b.Text)
	a.End = max(a.End, b.End)
	if b.PersonID != nil {
		a.PersonID = b.PersonID
	}
	return a
}

// cleanText collapses runs of spaces and removes a space before , . ? !
func cleanText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for _, p := range []string{",", ".", "?", "!"} {
		s = strings.ReplaceAll(s, " "+p, p)
	}
	return s
}

// merge folds fresh segments into each other and into tail, the last
// segment sent (nil when it may not be extended). A merged tail keeps its
// id: the client replaces it by id, as the reference's merge does; new
// segments have no id yet.
func merge(tail *appliance.TranscriptSegment, fresh []appliance.TranscriptSegment) []appliance.TranscriptSegment {
	var out []appliance.TranscriptSegment
	for _, s := range fresh {
		s.Text = cleanText(s.Text)
		if s.Text == "" {
			continue
		}
		if n := len(out); n > 0 && canMerge(out[n-1], s) {
			out[n-1] = join(out[n-1], s)
			continue
		}
		if len(out) == 0 && tail != nil && canMerge(*tail, s) {
			out = append(out, join(*tail, s))
			continue
		}
		out = append(out, s)
	}
	return out
}

// shapeWords prepares one batch of a route's words (one utterance of a
// local route) for segments: sentences, capitals and final punctuation,
// so that merging (which decides on final punctuation) and extraction see
// sentences. Routes that punctuate pass through unchanged.
func (s *session) shapeWords(ws []stt.Word) []stt.Word { return punctuate.Punctuate(ws) }
