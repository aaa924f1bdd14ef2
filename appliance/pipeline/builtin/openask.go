package builtin

// A task asked of anyone in the room ("who's going to write up the notes",
// "can somebody check the server logs", "we need someone to call the
// caterer") is the user's when the user takes it up in the next turn, in
// the first person ("I can do that", "I'll look into it this afternoon",
// "leave it with me"). A bare "yes" or "sure" takes up nothing: it may agree
// that someone should.

// openAsks open a task asked of anyone.
var openAsks = [][]string{
	{"who's", "going", "to"}, {"who", "is", "going", "to"}, {"who's", "gonna"}, {"who", "can"}, {"who", "wants", "to"},
	{"can", "somebody"}, {"can", "someone"}, {"could", "somebody"}, {"could", "someone"},
	{"can", "anyone"}, {"could", "anyone"}, {"does", "anyone", "want", "to"},
	{"we", "need", "someone", "to"}, {"we", "need", "somebody", "to"}, {"someone", "needs", "to"},
	{"somebody", "needs", "to"}, {"someone", "has", "to"}, {"somebody", "has", "to"}, {"someone", "should"},
	{"somebody", "should"}, {"i", "need", "someone", "to"}, {"we'll", "need", "someone", "to"},
}

// takenByUser: the next turn after utterance i is the user's and opens by
// taking the task up in the first person.
func (dl *dialogue) takenByUser(i int) bool {
	seg := dl.utts[i].seg
	for j := i + 1; j < len(dl.utts); j++ {
		v := &dl.utts[j]
		if v.seg == seg {
			continue
		}
		if !v.isUser {
			return false
		}
		ws := v.words
		for k := 0; k < len(ws) && k < 5; k++ {
			if inSet(refuseWords, ws[k].lower) || ws[k].lower == "not" {
				return false
			}
			if matchAt(ws, k, len(ws), takeUps) > 0 {
				return true
			}
		}
		return false
	}
	return false
}

// takeUps are the first person taking a task up.
var takeUps = [][]string{
	{"i'll"}, {"i", "will"}, {"i", "can"}, {"i", "could"}, {"i'm", "on", "it"}, {"on", "it"}, {"leave", "it", "with", "me"},
	{"leave", "that", "with", "me"}, {"me"}, {"i'd", "be", "happy", "to"}, {"i", "don't", "mind"}, {"mine"},
}
