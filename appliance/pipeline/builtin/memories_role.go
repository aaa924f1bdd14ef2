package builtin

import (
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// newRole reads a role the user is taking on, named by someone who speaks
// to them about it: "how are you feeling about the team lead role",
// "congrats on your new job as head chef". A role is kept once it has a
// name: "the role" alone says nothing to remember.
func (dl *dialogue) newRole(u *utterance) (memoryCand, bool) {
	if u.isUser || !dl.userKnown {
		return memoryCand{}, false
	}
	ws := u.words
	addressed := false
	for k, w := range ws {
		if w.lower == "you" || w.lower == "your" || w.lower == "you're" {
			addressed = true
		}
		if !addressed || !inSet(jobWords, w.lower) || k < 2 {
			continue
		}
		if k+1 < len(ws) && w.punct == 0 && ws[k+1].lower != "and" && ws[k+1].lower != "so" {
			continue // "the team lead role description" is about a document
		}
		// the role's name: the words between "the"/"your" (or "new") and
		// "role", at most three, none a stop word
		j := k
		for j > 0 && k-j < 3 && !ws[j-1].is(wcStop) && ws[j-1].lower != "new" && ws[j-1].punct == 0 {
			j--
		}
		det := wordAt(ws, j-1)
		if det == "new" {
			det = wordAt(ws, j-2)
		}
		if j == k || det != "the" && det != "your" {
			continue
		}
		names := make([]string, 0, k-j)
		for _, w := range ws[j:k] {
			names = append(names, w.lower)
		}
		return memoryCand{content: "User is moving into a " + strings.Join(names, " ") + " " + w.lower,
			category: appliance.MemorySystem}, true
	}
	return memoryCand{}, false
}

// acceptedRole reads a role the user accepts when asked at utterance i:
// "will you be my maid of honor?" answered "oh my gosh yes", and the
// occasion the asker names next ("the wedding is June twelfth in
// Savannah") is where the role is held.
func (dl *dialogue) acceptedRole(i int, ref time.Time) (memoryCand, bool) {
	u := &dl.utts[i]
	if u.isUser || !dl.userKnown || i+1 >= len(dl.utts) || !dl.utts[i+1].isUser {
		return memoryCand{}, false
	}
	ws := u.words
	k := -1
	for j := range ws {
		if (hasSeq(ws, j, "will", "you", "be", "my") || hasSeq(ws, j, "would", "you", "be", "my")) && j+4 < len(ws) {
			k = j + 4
			break
		}
	}
	if k < 0 || !assents(dl.utts[i+1].words) {
		return memoryCand{}, false
	}
	role := factWords(ws, k, len(ws))
	if role == "" {
		return memoryCand{}, false
	}
	content := "User will be " + role
	// the occasion: "the wedding is June twelfth in Savannah"
	for n := i + 2; n < len(dl.utts) && n <= i+3; n++ {
		o := &dl.utts[n]
		if o.speaker != u.speaker || wordAt(o.words, 0) != "the" || wordAt(o.words, 2) != "is" {
			continue
		}
		ow := datesWritten(o.words, 3, len(o.words), ref)
		if rest := factWords(ow, 3, len(ow)); rest != "" {
			content += " at the " + o.words[1].lower + " " + rest
		}
		break
	}
	return memoryCand{content: content, category: appliance.MemorySystem}, true
}

// assents: an answer says yes in its first words ("oh my gosh yes of
// course"), with no refusal before it.
func assents(ws []cword) bool {
	for k := 0; k < len(ws) && k < 4; k++ {
		w := ws[k].lower
		if inSet(refuseWords, w) {
			return false
		}
		if w == "yes" || w == "yeah" || w == "absolutely" || w == "definitely" || hasSeq(ws, k, "of", "course") {
			return true
		}
	}
	return false
}
