package builtin

import "github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"

func inSet(set lexicon.Set, w string) bool {
	return set.Has(w)
}

// fillerWords are interjections, backchannels, greetings and politeness
// formulas. A transcript made only of these carries nothing to keep, which is
// why both the fixed rules and the built-in discard heuristic rely on them.
var fillerWords = lexicon.NewSet(`
	mm mmm mhm mmhm hmm hm hmmm uh uhh um umm huh ah ahh oh ohh ooh eh er erm
	ha haha hahaha heh hehe lol aha whoa wow ugh oops ow yeah yea ya yah yep yup
	yeh nah nope okay ok k kay alright allright aight right sure cool nice great
	good fine hey hi hello yo bye goodbye byebye cya thanks thank ty sorry pardon
	please bro dude man guys exactly totally absolutely definitely indeed perfect
	awesome amazing true correct welcome cheers`)

// multilingualFillers are single-token acknowledgements and greetings in the
// other languages Hearth users commonly speak; any other foreign token counts
// as content.
var multilingualFillers = lexicon.NewSet(`
	ừ ờ ừm dạ vâng ja jo ne nee oui ouais si sí vale bueno da ага угу да нет ну
	ок окей hola adiós adios gracias merci salut bonjour ciao grazie danke hallo
	tschüss tschuss claro vale órale spasibo спасибо привет пока obrigado obrigada
	olá ola tchau`)

// stopWords never count as content when deciding what to discard, what a
// task is about or what a title says (lexicon.ExtractorStopWords).
var stopWords = lexicon.ExtractorStopWords

// placeholderWords describe the act of talking rather than a topic; a title
// made of them would read like "Untitled" or "Conversation".
const placeholderList = `conversation conversations untitled chat chats discussion discussions
	talked speaker speakers transcript recording`

var placeholderWords = lexicon.NewSet(placeholderList)

// keywordStopWords never become title words: placeholders, number words,
// generic adjectives and vague nouns say nothing about the topic.
var keywordStopWords = lexicon.NewSet(placeholderList, `
	today yesterday okay um uh yeah people person guy guys
	everybody anybody tonight
	zero two three four five six seven eight nine ten eleven twelve thirteen fourteen
	fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy
	eighty ninety hundred thousand million billion half dozen couple
	whole entire full huge tiny main certain general specific total various simple
	important possible likely special usual extra single double quick rough ready
	glad super basic major minor recent current several incredible terrible
	horrible wonderful lovely fantastic excellent awful wild`)

// lightWords count as content for discard decisions (they often carry plans:
// "call", "tomorrow") but are weak topics, so keyword scoring discounts them
// and phrases may not begin or end with them.
var lightWords = lexicon.NewSet(`
	call calls called calling tomorrow morning afternoon evening night week weeks
	month months year years day days minute minutes hour hours second seconds
	start started starting end ended use used using able sure next last first
	new old long lots right left work working worked job remember forget
	buy bought send sent check checked ask asked asking call's start's show
	remind reminder later soon early late quick quickly start doing today's
	monday tuesday wednesday thursday friday saturday sunday weekend
	also yesterday probably definitely maybe something idea ideas point points
	part parts number numbers question questions answer problem problems
	happen happened happening
	cut ship add run watch send pick grab bring ask sign finish update switch order
	track lower file renew register figure move moved like liked came drop drops
	handle handling bringing flying making reading mentioned decided finished
	started changed dodged thinks said talked wants wanted loved`)

// smallWords stay lowercase inside a Title Case headline.
var smallWords = lexicon.NewSet(`a an the and but or nor for so yet of in on at to by up as via with from into over per vs`)

// foreignStopWords are function words and common verbs of the other Latin
// script languages (Spanish, French, German, Portuguese, Italian). They are
// used only in the degraded, non-English mode and to notice that a
// transcript with no language tag is not English.
var foreignStopWords = lexicon.NewSet(`
	el la los las un una unos unas de del al y o que en con por para como pero
	más mas muy ya es son está esta están estaba ser estar hay fue era yo tú tu
	él ella nosotros nosotras ellos ellas mi mis su sus se lo le les me te nos
	este esta esto ese esa eso aquí allí cuando donde porque también tambien
	sí si no tenemos tengo tiene tienen vamos voy va hacer hace puedo puede
	necesitamos necesito quiero creo mucho mucha muchos bien entonces pues
	le les des du et ou est sont était être avoir il elle nous vous ils elles je
	tu mon ma mes ton ta son sa ses ce cette ces qui quoi dans sur avec pour pas
	plus très tres aussi mais donc alors comme faire fait nous avons
	der die das den dem des ein eine einen einem und oder ist sind war waren
	ich du er sie es wir ihr mit für fur auf nicht auch aber noch sehr wie
	wenn dann haben hat habe wird werden kann können
	um uma os as do da dos das em no na nos nas com não nao sim é foi eu você
	voce ele ela eles elas meu minha seu sua isso isto aqui muito também
	il lo gli le uno una di da in con su per tra fra che non sono è ho hai
	ha abbiamo io tu lui lei noi voi loro mio mia questo questa quello anche
	molto ma perché`)

// cjkFillerRunes are CJK acknowledgement particles: a CJK transcript made only
// of these ("嗯嗯", "好的", "对对对") is a backchannel.
var cjkFillerRunes = runeSet("嗯啊哦噢喔呃额恩唉哎诶欸嘿喂哈呵呀吧嘛呢啦了的对好是行はいええうんあそうね")

// cjkFunctionRunes are CJK particles, pronouns and auxiliaries that make poor
// keyword edges; n-grams starting or ending with one are not title candidates.
var cjkFunctionRunes = runeSet("的了是我你他她它们在和就都也这那有不吗呢吧啊个要会说去来到上下很还把被给让一着过没得地么什怎样那么己自之与及或而但所以因为如果可能已经还是只其中对于为の は が を に で と も へ や か ね よ て た だ す ま し な る う い こ そ あ ど")

func runeSet(s string) map[rune]struct{} {
	m := make(map[rune]struct{})
	for _, r := range s {
		if r != ' ' {
			m[r] = struct{}{}
		}
	}
	return m
}

// capitalisedHomographs are names and months that collide with stop words;
// seen capitalised they mean a person or a date, so they block a discard.
var capitalisedHomographs = lexicon.NewSet(`May Will Bill Mark Sue Pat June Art Rose Grace Hope`)
