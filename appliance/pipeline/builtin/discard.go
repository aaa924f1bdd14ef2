package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// The built-in discard heuristic stands in for the reference's LLM tier,
// whose prompt reads: KEEP means tasks, plans, questions needing
// follow-up and personal facts; DISCARD means greetings, acknowledgements,
// fragments and Siri-like one-liners. Because a false discard hides
// something the user wanted, any keep cue wins over brevity.

// minContentWords: fewer content words than this, with no keep cue, is a
// fragment ("nice weather").
const (
	minContentWords        = 4
	minForeignContentWords = 2 // no cue lexicon outside English: be lenient
	maxAssistantTokens     = 20
)

// strongCues are explicit tasks and commitments; they keep a transcript
// even when it is addressed to a voice assistant.
var strongCues = []string{
	" i need to ", " i have to ", " i've got to ", " i got to ", " i gotta ", " i must ",
	" remind me ", " don't forget ", " do not forget ", " remember to ", " note to self ",
	" make a note ", " take a note ", " we need to ", " we have to ", " i should ",
	" we should ", " i'll ", " i will ", " let's ", " to do list ", " todo ", " my list ",
	" add to my ", " put on my ", " make sure ",
}

// weakCues are plans and dated things: they keep a short transcript, but
// not a wake-word one-liner ("hey siri what's the weather tomorrow").
var weakCueWords = lexicon.NewSet(`tomorrow tonight monday tuesday wednesday thursday friday saturday
	sunday weekend o'clock noon midnight deadline meeting meetings appointment appointments
	schedule scheduled reschedule reservation interview flight birthday anniversary due
	doctor dentist pickup`)

// wakeWords open an utterance addressed to a voice assistant.
var wakeWords = [][]string{
	{"hey", "siri"}, {"siri"}, {"ok", "google"}, {"okay", "google"}, {"hey", "google"},
	{"alexa"}, {"hey", "alexa"}, {"hey", "cortana"}, {"hey", "meta"}, {"bixby"},
}

// shouldDiscard applies the heuristic to an analysed transcript and names
// the rule that decided, for logs and tests.
func (a *analysis) shouldDiscard() (bool, string) {
	cjkContent := (a.cjkChars - a.cjkFiller) / 2
	if !a.english {
		if a.content+cjkContent < minForeignContentWords {
			return true, "foreign_fragment"
		}
		return false, "foreign_content"
	}
	content := a.content + cjkContent
	if content == 0 {
		return true, "no_content_words"
	}
	assistant := a.addressedToAssistant()
	if !assistant && content >= minContentWords {
		// Enough substance; the cues below could only confirm the keep.
		if a.hasQuestion() {
			return false, "question"
		}
		return false, "content"
	}
	joined := a.joinedLower()
	for _, c := range strongCues {
		if strings.Contains(joined, c) {
			return false, "task_cue"
		}
	}
	switch {
	case assistant:
		return true, "assistant_one_liner"
	case a.hasWeakCue():
		return false, "plan_cue"
	case a.hasPersonalFact():
		return false, "personal_fact"
	}
	return true, "fragment"
}

// smallTalkContent: an exchange with fewer content words than this that
// yields no task, no plan and no fact is small talk ("Coffee?" "Yes
// please. Did you sleep okay?" "Not really, the dog kept barking."): the
// reference's DISCARD for greetings and pleasantries, which a question
// alone does not turn into something to follow up.
const smallTalkContent = 8

// smallTalk: a short English exchange between two or more speakers with no task or plan cue, no
// personal fact, and from which neither an action item nor an event is
// read.
func (a *analysis) smallTalk(in appliance.TranscriptInput) bool {
	if !a.english || a.content >= smallTalkContent || a.addressedToAssistant() {
		return false
	}
	joined := a.joinedLower()
	for _, c := range strongCues {
		if strings.Contains(joined, c) {
			return false
		}
	}
	if a.hasWeakCue() || a.hasPersonalFact() {
		return false
	}
	if len(speakersOf(in.Segments)) < 2 {
		return false // a question put on its own is asked to be answered later
	}
	return !a.yieldsTaskOrPlan(in)
}

// yieldsTaskOrPlan: an action item or an event is read from the transcript.
func (a *analysis) yieldsTaskOrPlan(in appliance.TranscriptInput) bool {
	tm := newTiming(in)
	dl := newDialogue(a.doc, in.Segments, in.UserName)
	return len(dl.actionItems(tm)) > 0 || len(dl.events(tm)) > 0
}

func speakersOf(segs []appliance.TranscriptSegment) map[string]bool {
	out := map[string]bool{}
	for _, s := range segs {
		out[s.Speaker] = true
	}
	return out
}

// joinedLower is the transcript as lowercase words between single spaces,
// padded with spaces so cues match whole words.
func (a *analysis) joinedLower() string {
	var b strings.Builder
	b.WriteByte(' ')
	for _, t := range a.doc.tokens {
		b.WriteString(t.lower)
		b.WriteByte(' ')
	}
	return b.String()
}

func (a *analysis) addressedToAssistant() bool {
	toks := a.doc.tokens
	if len(toks) > maxAssistantTokens {
		return false
	}
	for _, w := range wakeWords {
		if len(toks) < len(w) {
			continue
		}
		match := true
		for i, x := range w {
			if toks[i].lower != x {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

func (a *analysis) hasWeakCue() bool {
	toks := a.doc.tokens
	for i, t := range toks {
		if inSet(weakCueWords, t.lower) {
			return true
		}
		// "next week", "at 5 pm", "3:30"
		if t.lower == "next" && i+1 < len(toks) && (toks[i+1].lower == "week" || toks[i+1].lower == "month") {
			return true
		}
		if (t.lower == "pm" || t.lower == "am") && i > 0 && isDigits(toks[i-1].lower) {
			return true
		}
	}
	return false
}

// hasPersonalFact: "my" followed by a content word ("my sister", "my
// allergy"), the cheapest signal that the user is telling something about
// themselves, or a fact the memory extractor recognises ("I'm allergic to
// shellfish", "I work at Acme").
func (a *analysis) hasPersonalFact() bool {
	toks := a.doc.tokens
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].lower == "my" && isContentWord(toks[i+1].lower, true) {
			return true
		}
	}
	for _, s := range a.doc.sentences {
		ws := splitWords(s.text)
		if _, ok := userFact(ws, skipDiscourse(ws, 0, len(ws)), len(ws)); ok {
			return true
		}
	}
	return false
}

func (a *analysis) hasQuestion() bool {
	for _, s := range a.doc.sentences {
		if strings.HasSuffix(s.text, "?") || strings.HasSuffix(s.text, "？") {
			return true
		}
	}
	return false
}
