package builtin

import "github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"

// Gapped tasks. "I'll send you the pricing today and the questionnaire by
// Wednesday" says one verb for two things, each with its own time: two
// tasks, the verb repeated, each due when its own time says.

// gappedTasks reads such a commitment from ws[body:b] of utterance i; nil
// when the body is one task.
func (dl *dialogue) gappedTasks(i int, ws []cword, body, b int, used []bool, tm timing) []task {
	v := firstBodyWord(ws, body, b, used)
	if v >= b || !ws[v].is(wcTaskVerb) {
		return nil
	}
	k := -1
	for j := v + 2; j+2 < b; j++ {
		if ws[j].lower == "and" && ws[j+1].is(wcDeterminer) && !scanCues(ws, j+1, min(j+3, b), tm.ref, nil).found {
			k = j
			break
		}
	}
	if k < 0 {
		return nil
	}
	d1, _ := tm.due(ws, v, k, nil)
	d2, _ := tm.due(ws, k+1, b, nil)
	if d1 == nil || d2 == nil {
		return nil
	}
	owner := dl.addressee(i)
	u1 := make([]bool, len(ws))
	copy(u1, used)
	scanCues(ws, v, k, tm.ref, u1)
	desc1, top1, vague1 := describe(ws, body, k, u1, true, owner)
	nws := append([]cword{ws[v]}, ws[k+1:b]...)
	nu := make([]bool, len(nws))
	scanCues(nws, 1, len(nws), tm.ref, nu)
	desc2, top2, vague2 := describe(nws, 0, len(nws), nu, true, owner)
	if desc1 == "" || desc2 == "" || vague1 || vague2 {
		return nil
	}
	stem := lexicon.Stem(ws[v].lower)
	return []task{
		{verb: stem, desc: desc1, topic: top1, due: d1, utt: i},
		{verb: stem, desc: desc2, topic: top2, due: d2, utt: i},
	}
}
