package builtin

import (
	"sync"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Word classes as bits. The rules ask of each word, again and again,
// whether it is in one set or another: a clause rule asks of every word of
// a sentence whether it is a task verb, for every word of it, and a set
// lookup hashes the word each time. A word's classes are looked up once,
// in one table, as the word is split off (cword.cls), and the hottest rules
// test bits. The table is built from the rules' own sets, so a word added
// to a set is in its class too. The 32 bits are all taken: a wider type
// makes every split word 8 bytes larger (cword), ~9 % more bytes an op of
// BenchmarkPipelineProcess, so a further class must replace one.
type wordClass uint32

const (
	wcKnown wordClass = 1 << iota // the word's classes were looked up
	wcStop
	wcSubjectPronoun
	wcTaskVerb
	wcDeterminer
	wcKeepAtEnd
	wcClauseStarter
	wcBoundBeforeSubject
	wcCueFirst
	wcEventNoun
	wcModifiedNoun
	wcSendVerb
	wcDeliverVerb
	wcArriveVerb
	wcWithDeterminer
	wcProfessional
	wcPlanVerb
	wcFlyVerb
	wcFlySubject
	wcTransportNoun
	wcVisitVerb
	wcDiscourse
	wcInterAdverb
	wcForeignStop
	wcKin
	wcHypothetical
	wcQuestionAux
	wcFactStart
	wcFiller
	wcKeywordStop
	wcVerbCue
	wcLight
)

// classSets are the sets each class stands for.
var classSets = []struct {
	class wordClass
	set   lexicon.Set
}{
	{wcStop, stopWords},
	{wcSubjectPronoun, subjectPronouns},
	{wcTaskVerb, taskVerbs},
	{wcDeterminer, determiners},
	{wcKeepAtEnd, keepAtEnd},
	{wcClauseStarter, clauseStarters},
	{wcBoundBeforeSubject, boundBeforeSubject},
	{wcCueFirst, cueFirstWords},
	{wcEventNoun, eventNouns},
	{wcModifiedNoun, modifiedNouns},
	{wcSendVerb, sendVerbs},
	{wcDeliverVerb, deliverVerbs},
	{wcArriveVerb, arriveVerbs},
	{wcWithDeterminer, withDeterminers},
	{wcProfessional, professionals},
	{wcPlanVerb, planVerbs},
	{wcFlyVerb, flyVerbs},
	{wcFlySubject, flySubjects},
	{wcTransportNoun, transportNouns},
	{wcVisitVerb, visitVerbs},
	{wcDiscourse, discourseWords},
	{wcInterAdverb, interAdverbs},
	{wcForeignStop, foreignStopWords},
	{wcKin, kin},
	{wcHypothetical, hypotheticalMarkers},
	{wcQuestionAux, questionAux},
	{wcFactStart, factStarts},
	{wcFiller, anyFillers},
	{wcKeywordStop, keywordStopWords},
	{wcVerbCue, verbCues},
	{wcLight, lightWords},
}

// anyFillers are the words isFiller finds in a list: one class for the
// two lists it asks.
var anyFillers = lexicon.Union(fillerWords, multilingualFillers)

// wordClasses maps a word to its classes (wcKnown left out), built at the
// first conversation rather than as hearth starts.
var wordClasses = sync.OnceValue(buildWordClasses)

func buildWordClasses() map[string]wordClass {
	n := 0
	for _, e := range classSets {
		n += e.set.Len()
	}
	m := make(map[string]wordClass, n)
	for _, e := range classSets {
		for w := range e.set.All() {
			m[w] |= e.class
		}
	}
	return m
}

// classesOf is the classes of a lower-case word, wcKnown included.
func classesOf(lower string) wordClass {
	return wordClasses()[lower] | wcKnown
}

// classes is the word's classes; a word a rule made up rather than split
// off a sentence has them looked up now.
func (w *cword) classes() wordClass {
	if w.cls != 0 {
		return w.cls
	}
	return classesOf(w.lower)
}

// is reports whether the word is in any of the classes c.
func (w *cword) is(c wordClass) bool {
	return w.classes()&c != 0
}
