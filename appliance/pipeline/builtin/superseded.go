package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// A time said as the one a plan no longer has is no time of the clause:
// "Sunday at 7 instead of Saturday", "eleven thirty rather than ten",
// "moved the dinner from Saturday to Sunday lunch", "pushed to Monday at
// ten thirty, their CFO can't make Friday". The words are taken as cue words
// (so no task or title keeps them) but set nothing.

// slotChangeVerbs before "from" make the cue after it the old slot.
var slotChangeVerbs = lexicon.NewSet(`move moved moving moves push pushed pushing change changed changing bump bumped
	reschedule rescheduled rescheduling shift shifted delay delayed postpone postponed swap swapped switch switched`)

// superseded returns how many words at ws[i] name a slot given up, 0 when
// none.
func (sc *cueScanner) superseded(i int) int {
	ws := sc.ws
	j := 0
	switch w := ws[i].lower; {
	case hasSeq(ws, i, "instead", "of"), hasSeq(ws, i, "rather", "than"):
		j = i + 2
	case (w == "can't" || w == "cannot" || w == "couldn't" || w == "won't") && wordAt(ws, i+1) == "make" && ws[i].punct == 0:
		j = i + 2 // "their CFO can't make Friday"
	case w == "from" && changedBefore(ws, i):
		j = i + 1
	default:
		return 0
	}
	old := cueScanner{ws: ws, ref: sc.ref, wd: -1}
	k := j
	for k < len(ws) && ws[k-1].punct == 0 {
		if w := ws[k].lower; w == "on" || w == "at" && k > j {
			// "instead of on Saturday", "instead of Saturday at ten"
			if n := old.at(k); n > 0 {
				k += n
				continue
			}
			k++
			continue
		}
		n := old.at(k)
		if n == 0 {
			break
		}
		k += n
	}
	if k == j && ws[i].lower != "from" {
		// "instead of ten": a bare hour is the old slot's
		if _, _, _, n := clockAt(ws, j, false); n > 0 {
			return j + n - i
		}
	}
	if k == j || !old.c.date && !old.c.clock && old.c.part == 0 {
		return 0
	}
	if ws[i].lower == "from" && wordAt(ws, k) != "to" {
		return 0 // "moved it, from 2 to 4 works": only "from A to B" names the old A
	}
	return k - i
}

// changedBefore: a verb of changing a plan stands in the few words before
// ws[i], in the same clause ("moved the family dinner from", "is moving
// from").
func changedBefore(ws []cword, i int) bool {
	for k := i - 1; k >= 0 && k >= i-5; k-- {
		if ws[k].punct != 0 {
			return false
		}
		if inSet(slotChangeVerbs, ws[k].lower) {
			return true
		}
	}
	return false
}

// cancelWords in a clause call its plan off: "the camping trip this weekend
// is off", "we have to cancel your appointment on Wednesday", "the party on
// Sunday got called off". The slot said with them is no plan, though a new
// one may be said next ("Can I get another one?" "Monday the 14th at 10:20").
var cancelWords = lexicon.NewSet(`cancel cancels cancelled canceled cancelling canceling scrapped scrap`)

// calledOff: clause ws[a:b] calls its plan off.
func calledOff(ws []cword, a, b int) bool {
	for j := a; j < b; j++ {
		w := ws[j].lower
		switch {
		case inSet(cancelWords, w):
			return true
		case w == "off" && j > a && (inSet(copulas, ws[j-1].lower) || ws[j-1].lower == "called" || strings.HasSuffix(ws[j-1].lower, "'s")) &&
			ws[j-1].punct == 0 && wordAt(ws, j+1) != "to":
			// "is off", "it's off", "called off"; "she's off to Lisbon" leaves
			return true
		case hasSeq(ws, j, "not", "happening"), hasSeq(ws, j, "isn't", "happening"):
			return true
		}
	}
	return false
}
