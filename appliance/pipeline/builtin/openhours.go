package builtin

import "github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"

// openingHours: "the store opens at nine tomorrow", "the pharmacy closes at
// 6 tonight" say when a place is open, not a plan.
func openingHours(ws []cword, a, b int) bool {
	for j := a + 1; j < b; j++ {
		switch ws[j].lower {
		case "opens", "closes", "shuts":
			return true
		}
	}
	return false
}

// broadcast: "the match is on tv at eight tonight" is a time to watch
// something, not a plan to be at.
func broadcast(ws []cword, a, b int) bool {
	for j := a; j+1 < b; j++ {
		if ws[j].lower == "on" && (inSet(channels, ws[j+1].lower) || ws[j+1].lower == "the" && inSet(channels, wordAt(ws, j+2))) {
			return true
		}
	}
	return false
}

var channels = lexicon.NewSet(`tv telly television radio netflix youtube iplayer`)

// wellWishes answer someone else's plan: "have fun", "safe travels",
// "good luck", "fingers crossed".
var wellWishes = [][]string{
	{"have", "fun"}, {"have", "a", "good", "time"}, {"have", "a", "great", "time"}, {"enjoy"}, {"safe", "travels"},
	{"safe", "trip"}, {"safe", "flight"}, {"good", "luck"}, {"fingers", "crossed"}, {"break", "a", "leg"},
	{"hope", "it", "goes", "well"},
}

// stayingAway answer a plan told to the user with their absence: "the
// school play is thursday at six" "i can't make it i have to work"; "say
// hi from me".
var stayingAway = [][]string{
	{"can't", "make", "it"}, {"cannot", "make", "it"}, {"won't", "make", "it"}, {"can't", "come"}, {"can't", "go"},
	{"won't", "be", "there"}, {"can't", "be", "there"}, {"i'll", "miss", "it"}, {"i'm", "not", "going"},
	{"i'll", "pass"}, {"i'm", "away"}, {"i'll", "be", "away"}, {"say", "hi"}, {"say", "hello"},
}

// wishedWell: the user answers the plan told at utterance i by wishing the
// teller well, so the plan is the teller's, or by saying they will not be
// there.
func (dl *dialogue) wishedWell(i int) bool {
	if dl.utts[i].isUser {
		return false
	}
	for j := i + 1; j < len(dl.utts) && j <= i+2; j++ {
		v := &dl.utts[j]
		if !v.isUser {
			continue
		}
		for k := range v.words {
			if matchAt(v.words, k, len(v.words), wellWishes) > 0 || matchAt(v.words, k, len(v.words), stayingAway) > 0 {
				return true
			}
		}
		return false
	}
	return false
}
