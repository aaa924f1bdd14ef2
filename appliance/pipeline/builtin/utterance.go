package builtin

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// The task, event and memory extractors read English sentences word by
// word, knowing who said them. This file builds that view: the sentences of
// the shared document, re-tokenised so that clock times ("3:30"),
// hyphenated words ("one-on-one") and a.m./p.m. survive as single words, and
// each tagged with its speaker.

// cword is one word of an utterance.
type cword struct {
	text  string // surface form, punctuation stripped
	lower string
	punct byte // punctuation right after the word (',', '.', '?', '!', ';', ':'), or 0
	cap   bool // starts with an upper-case letter
	// cls is the word's classes (see wordClass), 0 when not looked up:
	// whoever changes lower sets it to 0.
	cls wordClass
}

// utterance is one sentence of one segment.
type utterance struct {
	seg      int // index into the input segments
	speaker  string
	isUser   bool // said by the user, as far as the extractor can tell
	question bool // ends with a question mark
	text     string
	words    []cword
	clauses  [][2]int // see clauses
	// tasks are the first words of the clauses that yielded an action
	// item, taskVerbs their verbs.
	tasks     []int
	taskVerbs []string
}

// dialogue is an English transcript as utterances, with what is known of
// who is who.
type dialogue struct {
	utts []utterance
	// userKnown: some segment is marked as the user's, so the others are not.
	userKnown bool
	// speakers: distinct speaker labels, for "the other speaker" in a
	// two-person conversation.
	speakers []string
	userName string
}

// newDialogue splits the document's sentences into utterances. When no
// segment is marked as the user's (no speech profile yet), every speaker is
// treated as possibly the user: a wearable mostly records its owner, and a
// memo recorded alone has one speaker who is the user.
func newDialogue(d *document, segs []appliance.TranscriptSegment, userName string) *dialogue {
	dl := &dialogue{userName: userName, utts: make([]utterance, 0, len(d.sentences))}
	for _, s := range segs {
		if s.IsUser {
			dl.userKnown = true
		}
		if !containsString(dl.speakers, s.Speaker) {
			dl.speakers = append(dl.speakers, s.Speaker)
		}
	}
	punctuated := make([]bool, len(segs)) // the segment holds some punctuation
	for _, s := range d.sentences {
		seg := d.tokens[s.first].seg
		u := utterance{seg: seg, text: s.text, speaker: segs[seg].Speaker}
		u.isUser = segs[seg].IsUser || !dl.userKnown
		u.words = splitWords(s.text)
		if len(u.words) == 0 {
			continue
		}
		u.question = u.words[len(u.words)-1].punct == '?'
		for _, w := range u.words {
			punctuated[seg] = punctuated[seg] || w.punct != 0
		}
		dl.utts = append(dl.utts, u)
	}
	for i := range dl.utts {
		u := &dl.utts[i]
		u.clauses = clauses(u.words, !punctuated[u.seg])
	}
	return dl
}

// single reports a one-speaker recording: a memo, a note to self.
func (dl *dialogue) single() bool { return len(dl.speakers) <= 1 }

// speakerName is how a description names another speaker: "Speaker 1" for
// the label SPEAKER_01, the label itself when it is a name.
func speakerName(label string) string {
	if label == "" {
		return "the other speaker"
	}
	if n := appliance.SpeakerIDFromLabel(label); n > 0 || label == appliance.DefaultSpeaker || isSpeakerLabel(label) {
		return "Speaker " + strconv.Itoa(n)
	}
	return label
}

func isSpeakerLabel(label string) bool {
	return len(label) > 8 && label[:8] == "SPEAKER_"
}

// addressee is who the user speaks to in utterance i: in a two-person
// conversation the other speaker, else nobody in particular.
func (dl *dialogue) addressee(i int) string {
	if len(dl.speakers) == 2 {
		if name := dl.greetedName(dl.utts[i].speaker); name != "" {
			return name
		}
		for _, s := range dl.speakers {
			if s != dl.utts[i].speaker {
				return speakerName(s)
			}
		}
	}
	return ""
}

// greetedName is the name the speaker greets or thanks the other by ("hi
// maria", "Thanks, Maria", "Maria, can you…"), so that "I'll send you the
// report" becomes "Send Maria the report", not "Send Speaker 1 the report".
func (dl *dialogue) greetedName(speaker string) string {
	for _, u := range dl.utts {
		if u.speaker != speaker {
			continue
		}
		if v := vocativeOf(u.words); v != "" {
			return capitalise(v)
		}
		ws := u.words
		for k := 0; k+1 < len(ws) && k < 4; k++ {
			if !inSet(greetings, ws[k].lower) {
				continue
			}
			n := ws[k+1]
			if inSet(stopWords, n.lower) || isFiller(n.lower) || inSet(discourseWords, n.lower) || inSet(notNames, n.lower) ||
				!isLetters(n.lower) || ws[k].punct != 0 && ws[k].punct != ',' {
				continue
			}
			if k+2 < len(ws) && ws[k+1].punct == 0 && ws[k+2].cap && !ws[k+1].cap {
				continue // "hi there Sam": not a name pair we can read
			}
			return capitalise(n.text)
		}
	}
	return ""
}

var greetings = lexicon.NewSet(`hi hey hello morning evening thanks bye`)

// notNames follow a greeting without naming anyone.
var notNames = lexicon.NewSet(`everyone everybody all guys team folks there again so much lot y'all
	man buddy dude mate sir madam ma'am boss both you again anyway for morning afternoon evening night
	babe honey sweetie love dear mom mum dad`)

func isLetters(w string) bool {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return w != ""
}

// toUser reports whether a request in utterance i, said by someone other
// than the user, is addressed to the user: a vocative naming someone else
// ("Nadia, can you…") rules it out; otherwise the user must be one of two
// speakers, or have spoken just before or just after.
func (dl *dialogue) toUser(i int, vocative string) bool {
	u := dl.utts[i]
	if u.isUser || !dl.userKnown {
		return false
	}
	if vocative != "" {
		if dl.userName != "" {
			return equalFoldASCII(vocative, firstWord(dl.userName))
		}
		// the user's name unknown: the name called is the user's when
		// no one else is there to hear it, or when the user answers
		// taking the task up
		return len(dl.speakers) == 2 || dl.takenByUser(i)
	}
	if len(dl.speakers) == 2 {
		return true
	}
	seg := u.seg
	for _, d := range []int{-1, 1} {
		for j := i + d; j >= 0 && j < len(dl.utts); j += d {
			if dl.utts[j].seg == seg {
				continue
			}
			if dl.utts[j].isUser {
				return true
			}
			break
		}
	}
	return false
}

// splitWords tokenises one sentence. A word is a run of letters and digits,
// with apostrophes and hyphens inside it ("don't", "one-on-one") and colons
// or dots between digits ("3:30"); "a.m." and "p.m." become "am" and "pm".
func splitWords(s string) []cword {
	if strings.Contains(s, ".m") || strings.Contains(s, ".M") {
		s = meridiem.Replace(s)
	}
	ws := make([]cword, 0, len(s)/5+1)
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		text := s[start:end]
		r, _ := utf8.DecodeRuneInString(text)
		lower := lowerWord(text)
		ws = append(ws, cword{text: text, lower: lower, cap: unicode.IsUpper(r), cls: classesOf(lower)})
		start = -1
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0 && (r == '\'' || r == '-') && letterOrDigitAt(s, i+size):
			// inside a word: don't, one-on-one, follow-up
		case start >= 0 && (r == ':' || r == '.') && digitAt(s, i-1) && digitAt(s, i+size):
			// 3:30, 3.5
		default:
			flush(i)
			if n := len(ws); n > 0 && ws[n-1].punct == 0 {
				switch r {
				case ',', '.', '?', '!', ';', ':':
					ws[n-1].punct = byte(r)
				case '？':
					ws[n-1].punct = '?'
				case '，':
					ws[n-1].punct = ','
				case '。':
					ws[n-1].punct = '.'
				}
			}
		}
		i += size
	}
	flush(len(s))
	return ws
}

var meridiem = strings.NewReplacer("a.m.", "am", "p.m.", "pm", "A.M.", "am", "P.M.", "pm", "a.m", "am", "p.m", "pm")

func letterOrDigitAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isWordRune(r)
}

func digitAt(s string, i int) bool {
	return i >= 0 && i < len(s) && '0' <= s[i] && s[i] <= '9'
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func firstWord(s string) string {
	for i, r := range s {
		if unicode.IsSpace(r) {
			return s[:i]
		}
	}
	return s
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

// hasSeq reports whether ws[i:] starts with the given lowercase words.
func hasSeq(ws []cword, i int, seq ...string) bool {
	if i < 0 || i+len(seq) > len(ws) {
		return false
	}
	for k, w := range seq {
		if ws[i+k].lower != w {
			return false
		}
	}
	return true
}

// wordAt is the lowercase word at i, or "" out of range.
func wordAt(ws []cword, i int) string {
	if i < 0 || i >= len(ws) {
		return ""
	}
	return ws[i].lower
}
