package lexicon

// The stop-word lists, by kind. Each consumer builds its stop words from
// the kinds it needs: ExtractorStopWords and EmbedderStopWords.

// FunctionWords are the English function words both the extractor and the
// embedder ignore: pronouns, determiners, auxiliaries, prepositions,
// conjunctions, question words and the hedges of speech ("like", "just",
// "gonna").
var FunctionWords = NewSet(`
	a about after again against all am an and any are as at be because been before being between both
	but by can could did do does doing down during each few for from had has have having he her here
	hers herself him himself his how i if in into is it its itself just me more most my myself no not
	now of off on only or other our ours ourselves out over own same she should so some such than that
	the their theirs them themselves then there these they this those through to too under until up very
	was we were what when where which while who whom why will with would you your yours yourself
	yourselves also yet well cannot like really actually basically gonna wanna gotta kinda sorta`)

// RareFunctionWords are function words too rare in speech for the
// extractor to need ("nor", "ought").
var RareFunctionWords = NewSet(`
	above below further nor once ought`)

// JoinedContractions are contractions as the embedder's tokeniser joins
// them ("don't" → "dont") or as texts typed without apostrophes spell
// them ("im", "youre").
var JoinedContractions = NewSet(`
	im ive youre youve youd youll hes shes weve theyre theyve theyd theyll thats whats whos wheres whens
	whys hows theres heres lets dont doesnt didnt isnt arent wasnt werent hasnt havent hadnt wont
	wouldnt cant couldnt shouldnt mustnt neednt aint`)

// ContractionPieces are what is left of "I'll", "it's" or "we've" when a
// tokeniser splits at the apostrophe.
var ContractionPieces = NewSet(`
	s t d ll m re ve`)

// Hesitations are the fillers and backchannels of transcribed speech.
var Hesitations = NewSet(`
	um umm uh uhh hmm mm mhm ah oh eh er erm yeah yep yup nope nah okay ok`)

// Contractions are contractions spelled with their apostrophe, and spoken
// run-togethers ("dunno", "lemme").
var Contractions = NewSet(`
	i'm i've i'll i'd you're you've you'll you'd he's she's it's it'll we're we've we'll we'd they're
	they've they'll they'd that's there's here's what's who's where's how's let's don't doesn't didn't
	can't won't wouldn't couldn't shouldn't isn't aren't wasn't weren't haven't hasn't hadn't ain't
	i'd've dunno lemme gimme y'all`)

// MoreFunctionWords are the indefinite pronouns, modals, conjunctions,
// prepositions, quantifiers and frequency adverbs the extractor also treats
// as saying nothing about a task or topic.
var MoreFunctionWords = NewSet(`
	mine us someone something anything everything nothing anyone everyone somebody anybody everybody
	nobody somewhere anywhere everywhere whoever whichever whose done shall may might must yes cause cuz
	though although unless whether onto without within upon across behind beyond back around away along
	toward towards much many little lot lots bit every another different else enough several ever never
	always sometimes often`)

// Hedges are discourse adverbs ("literally", "maybe", "anyway").
var Hedges = NewSet(`
	literally honestly seriously even still already maybe probably perhaps kind sort quite pretty rather
	anyway anyways whatever whenever however somehow`)

// LightVerbs are verbs so general ("get", "make", "say") that the
// extractor never takes them for the content of a task or title. The
// embedder keeps them: for a search they still carry meaning.
var LightVerbs = NewSet(`
	get gets got gotten getting go goes going went gone come comes coming came know knew known knows
	think thinks thinking thought mean means meant guess say says saying said tell tells told see sees
	seeing saw seen look looks looking looked want wants wanted let make makes made making take takes
	took taken give gave put feel felt feels try trying tried keep kept stay wait hold stop mind gives
	giving given talk talks talking talked agree agreed one ones need needs needed`)

// VagueWords are vague nouns, generic evaluatives and exclamations.
var VagueWords = NewSet(`
	thing things stuff way time times bad wrong crazy weird fun funny interesting easy hard better best
	worse worst big small real sad happy boring god gosh jeez geez`)

// ExtractorStopWords are the words the built-in extractor never takes for
// content when it decides what to discard, what a task is about or what a
// title says. Task verbs ("call", "buy") and time words are deliberately
// absent.
var ExtractorStopWords = Union(FunctionWords, Contractions, MoreFunctionWords, Hedges, LightVerbs, VagueWords)

// EmbedderStopWords are the words the built-in embedder leaves out of a
// text's word features: in short texts they would otherwise dominate the
// vector.
var EmbedderStopWords = Union(FunctionWords, RareFunctionWords, JoinedContractions, ContractionPieces, Hesitations)
