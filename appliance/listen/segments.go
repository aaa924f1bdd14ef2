package listen

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/punctuate"
)

// wordsToSegments groups consecutive words of one speaker and route into
// a segment, shifted by offset seconds (the stream's start within the
// conversation). provider names the route of words that name none (see
// stt.Word.Provider).
func wordsToSegments(words []stt.Word, offset float64, provider string) []appliance.TranscriptSegment {
	var out []appliance.TranscriptSegment
	for _, w := range words {
		text := strings.TrimSpace(w.Text)
		if text == "" {
			continue
		}
		p := provider
		if w.Provider != "" {
			p = w.Provider
		}
		if n := len(out); n > 0 && out[n-1].SpeakerID == w.Speaker && segmentProvider(out[n-1]) == p {
			if !repeatsMarker(out[n-1].Text, text) {
				out[n-1].Text += " " + text
			}
			out[n-1].End = w.End + offset
			continue
		}
		out = append(out, segment(text, w.Speaker, w.Start+offset, w.End+offset, p))
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
	if segmentProvider(a) != segmentProvider(b) || a.SpeechProfileProcessed != b.SpeechProfileProcessed {
		return false
	}
	if b.Start-a.End >= mergeGap {
		return false
	}
	same := a.SpeakerID == b.SpeakerID || (a.IsUser && b.IsUser)
	if same && (shorter(a.Text, shortChars) || !endsSentence(a.Text)) {
		return true
	}
	return !endsSentence(a.Text) && startsLower(b.Text) && same
}

func segmentProvider(s appliance.TranscriptSegment) string {
	if s.STTProvider == nil {
		return ""
	}
	return *s.STTProvider
}

// shorter says whether s has fewer than n runes, counting no further than
// n: a merged segment can be long, and merging asks once per segment.
func shorter(s string, n int) bool {
	if len(s) < n {
		return true
	}
	for range s {
		if n--; n <= 0 {
			return false
		}
	}
	return true
}

// endsSentence looks only at the last rune, for the same reason.
func endsSentence(s string) bool {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	r, size := utf8.DecodeLastRuneInString(s)
	return size > 0 && strings.ContainsRune(".?!。？！؟।", r)
}

func startsLower(s string) bool {
	for _, r := range strings.TrimSpace(s) {
		return r >= 'a' && r <= 'z'
	}
	return false
}

// join appends b to a. Both texts are clean, so only the seam can need
// cleaning: no space before a leading , . ? ! of b. The text grows in
// text, so that folding many segments into one costs their length once,
// not once per segment.
func join(a, b appliance.TranscriptSegment, text *strings.Builder) appliance.TranscriptSegment {
	if text.Len() == 0 {
		text.WriteString(a.Text)
	}
	if !repeatsMarker(a.Text, b.Text) {
		if !strings.ContainsAny(b.Text[:1], ",.?!") {
			text.WriteByte(' ')
		}
		text.WriteString(b.Text)
	}
	a.Text = text.String()
	a.End = max(a.End, b.End)
	if b.PersonID != nil {
		a.PersonID = b.PersonID
	}
	return a
}

// repeatsMarker says whether b is a marker of speech in another language
// (stt.OtherLanguage) that a already ends with: two such utterances in a
// row are one stretch of it, marked once.
func repeatsMarker(a, b string) bool {
	return stt.IsOtherLanguage(b) && strings.HasSuffix(a, b)
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
	var text strings.Builder // the last of out's text, while it grows
	for _, s := range fresh {
		s.Text = cleanText(s.Text)
		if s.Text == "" {
			continue
		}
		if n := len(out); n > 0 && canMerge(out[n-1], s) {
			out[n-1] = join(out[n-1], s, &text)
			continue
		}
		text = strings.Builder{}
		if len(out) == 0 && tail != nil && canMerge(*tail, s) {
			out = append(out, join(*tail, s, &text))
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
