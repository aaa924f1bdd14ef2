package embed

import "strings"

// stopWords are function words, the pieces of contractions (the tokeniser
// joins "n't" contractions into "dont" and splits the others, so "I'll"
// arrives as "i" and "ll"; texts typed without apostrophes give "im",
// "youre") and the fillers of transcribed speech. They say nothing about what a text is about, and in short texts
// they would otherwise dominate the vector. A text made only of stop words
// still uses them (see features), so "what is it" and "where are they" stay
// distinct.
var stopWords = wordSet(`
	a about above after again against all am an and any are as at be because
	been before being below between both but by can could did do does doing
	down during each few for from further had has have having he her here hers
	herself him himself his how i if in into is it its itself just me more most
	my myself no nor not now of off on once only or other ought our ours
	ourselves out over own same she should so some such than that the their
	theirs them themselves then there these they this those through to too
	under until up very was we were what when where which while who whom why
	will with would you your yours yourself yourselves also yet
	im ive youre youve youd youll hes shes weve well theyre
	theyve theyd theyll thats whats whos wheres whens whys hows theres heres
	lets dont doesnt didnt isnt arent wasnt werent hasnt havent hadnt wont
	wouldnt cant cannot couldnt shouldnt mustnt neednt aint
	um umm uh uhh hmm mm mhm ah oh eh er erm yeah yep yup nope nah okay ok
	like just really actually basically gonna wanna gotta kinda sorta
	s t d ll m re ve
`)

// wordSet builds a lookup set from a whitespace-separated list.
func wordSet(list string) map[string]struct{} {
	m := make(map[string]struct{})
	for _, w := range strings.Fields(list) {
		m[w] = struct{}{}
	}
	return m
}
