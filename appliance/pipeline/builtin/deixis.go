package builtin

import "github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"

// pointsAtHand: a fact about the user in ws[a:b] whose object is pointed at
// rather than named ("I prefer the blue one", "I love it", "I prefer it
// this way", "my favourite is the chocolate one", "I'm a fan of those")
// means something only beside what the speakers could see or had just said,
// so it is no fact to keep. A pointing word before a noun recalls a thing
// both know and names it ("those lavender candles"), and one before a time
// names the time ("this winter").
func pointsAtHand(ws []cword, a, b int) bool {
	for k := a + 1; k < b; k++ {
		last := k+1 == b || ws[k].punct != 0
		switch w := ws[k].lower; {
		case w == "it" || w == "here":
			return true // "I'm from here": where the talk is, which no memory says
		case inSet(pointingWords, w) && (last || inSet(pointedThings, wordAt(ws, k+1))):
			return true
		case w == "one" && last && (inSet(pointingWords, wordAt(ws, k-1)) || k-2 >= a && ws[k-2].lower == "the"):
			return true // "this one", "the blue one"
		}
	}
	return false
}

// pointingWords point at a thing at hand.
var pointingWords = lexicon.NewSet(`this that these those`)

// pointedThings after a pointing word stand for the thing pointed at: "this
// way", "that one", "those ones", "this kind".
var pointedThings = lexicon.NewSet(`one ones way kind sort stuff thing things`)
