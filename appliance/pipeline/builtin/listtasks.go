package builtin

import (
	"strings"
)

// listHeads open a list read out as a note whose items are the objects of
// one verb: "Shopping list: oat milk, bread, two lemons", "calls today the
// vet about the shots the accountant about the estimate and aunt rosa".
var listHeads = map[string]struct {
	verb  string
	split bool // one task per item (calls) or one for the whole list (shopping)
}{
	"shopping list": {"Buy", false}, "grocery list": {"Buy", false},
	"calls": {"Call", true}, "calls to make": {"Call", true}, "emails": {"Email", true},
}

// listTasks reads the tasks of a list the user reads out at utterance i,
// the head opening the utterance; nil when there is none.
func (dl *dialogue) listTasks(i int, tm timing) []task {
	u := &dl.utts[i]
	if !u.isUser {
		return nil
	}
	ws := u.words
	s := skipDiscourse(ws, 0, len(ws))
	verb, split, k := "", false, s
	for _, n := range []int{3, 2, 1} {
		if s+n > len(ws) {
			continue
		}
		var head []string
		for _, w := range ws[s : s+n] {
			head = append(head, w.lower)
		}
		if h, ok := listHeads[strings.Join(head, " ")]; ok {
			verb, split, k = h.verb, h.split, s+n
			break
		}
	}
	if verb == "" || ws[k-1].punct != ':' && ws[k-1].punct != 0 {
		return nil
	}
	due, _ := tm.due(ws, k, len(ws), nil)
	// a time said with the head ("calls today") is the list's, not an item
	for k < len(ws) && (ws[k].lower == "today" || ws[k].lower == "tomorrow" || ws[k].lower == "tonight") {
		k++
	}
	if k >= len(ws) || ws[k].is(wcStop) && !ws[k].is(wcDeterminer) {
		return nil // "calls are expensive" reads no list
	}
	var items [][2]int
	if split {
		items = listItems(ws, k, len(ws))
	} else {
		items = [][2]int{{k, len(ws)}}
	}
	var out []task
	for _, it := range items {
		var words []string
		for _, w := range ws[it[0]:it[1]] {
			words = append(words, w.text+punctOf(w))
		}
		np := strings.TrimRight(strings.Join(words, " "), ",.;:!? ")
		if np == "" {
			continue
		}
		out = append(out, task{verb: strings.ToLower(verb), desc: verb + " " + np, topic: topicOf(np), due: due, utt: i})
	}
	return out
}

// punctOf is the comma a list item keeps inside one task's text.
func punctOf(w cword) string {
	if w.punct == ',' {
		return ","
	}
	return ""
}

// listItems splits a run of objects said without pauses: a new item starts
// at "and", at a comma, or at "the" right after a content word ("the vet
// about the shots the accountant about …": the second "the" follows
// "shots").
func listItems(ws []cword, a, b int) [][2]int {
	var out [][2]int
	start := a
	for k := a; k < b; k++ {
		w := ws[k].lower
		cut := -1
		switch {
		case w == "and" && k > start:
			cut = k
		case w == "the" && k > start && !ws[k-1].is(wcStop) && ws[k-1].punct == 0:
			cut = k
		case k > start && ws[k-1].punct == ',':
			cut = k
		}
		if cut < 0 {
			continue
		}
		out = append(out, [2]int{start, cut})
		start = cut
		if w == "and" {
			start = cut + 1
		}
	}
	if start < b {
		out = append(out, [2]int{start, b})
	}
	return out
}
