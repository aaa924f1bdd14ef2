package builtin

import (
	"strings"
	"sync"
	"unicode"

	"github.com/hearth-appliance/hearth/appliance"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// categoryCues lists English stems that signal each category. A word matches a
// stem exactly or as stem + a common suffix (see categoryStems), so
// "budget" covers "budgets" and "budgeting". Stems are chosen to be specific:
// everyday words ("time", "work" as a verb) would drown the signal.
//
// A stem written with a leading "~" is a weak cue: a word that often turns
// up outside its topic ("book a table", "the door code", "my wife says").
// Weak cues add to a category's score but cannot establish it on their own
// (see classify).
var categoryCues = map[appliance.Category]string{
	"personal": `journal diary habit routine birthday hobby hobbies resolution errand chore
		laundry grocery groceries haircut wardrobe closet selfie todo wishlist declutter skincare
		nap wallet passport renewal`,
	"education": `~school ~class ~classes lecture homework exam quiz teacher professor student
		university college ~course study studies studying assignment semester ~grade tutor
		curriculum degree thesis lesson syllabus scholarship textbook campus ~learn`,
	"health": `doctor symptom medication medicine prescription pill pharmacy pharmacist clinic
		hospital nurse fever pain headache allerg blood diagnos dentist surgery injury
		vaccine sick illness vitamin cholesterol infection cough flu checkup physio diet
		sleep`,
	"finance": `money bank loan invest stock portfolio budget savings debt credit tax taxes
		expense spend spending income salary retire pension dividend crypto bitcoin payment
		paycheck ~cash ~fund accountant refund financ insurance ~bill ~bills`,
	"legal": `lawyer attorney court lawsuit ~contract judge legal law sue litigation settlement
		custody testament patent copyright trademark liability compliance regulation verdict
		jury plaintiff defendant subpoena notary ~clause arbitration`,
	"philosophy": `philosophy philosopher philosophical existence existential ethic moral
		consciousness ~truth stoic stoicism nietzsche socrates plato kant metaphysic
		epistemology ~logic virtue paradox determinism`,
	"spiritual": `pray prayer church faith bible spiritual ~spirit soul meditat mosque temple
		synagogue worship buddhis karma divine sermon pastor ~blessing scripture heaven
		gratitude`,
	"science": `science scientist scientific ~experiment research hypothesis physics chemistry
		biology molecule atom quantum laboratory ~theory evolution gene genetic neuron
		telescope planet astronomy universe particle species fossil microscope`,
	"entrepreneurship": `startup founder cofounder venture investor ~pitch fundrais valuation
		incubator accelerator bootstrap entrepreneur mvp ~traction ~equity ~runway ~pivot
		~seed ~launch ~angel`,
	"parenting": `kid kids child children son daughter baby toddler teen teenager diaper
		daycare preschool kindergarten babysit babysitter nanny pediatrician bedtime playdate
		tantrum stroller recital ~pickup parenting parent ~school`,
	"romantic": `dating girlfriend boyfriend lover romantic romance anniversary valentine ~kiss
		~crush ~relationship wedding honeymoon flirt tinder breakup marry marriage fiance
		fiancee`,
	"travel": `trip travel flight airport hotel passport visa luggage suitcase vacation holiday
		itinerary destination ~tour tourist beach resort airbnb boarding layover cruise
		backpack abroad sightsee hostel`,
	"inspiration": `inspir motivat ~dream ~passion aspir courage ~achieve ~success overcome
		resilien mindset ~potential ~vision persever ambition empower ~breakthrough`,
	"technology": `software ~code coding app computer laptop server database api ~program
		programming developer bug deploy cloud algorithm robot ~internet wifi website browser
		github python javascript kubernetes linux gpu ~chip smartphone iphone android ~network
		encrypt dataset ~feature`,
	"business": `budget revenue client customer quarterly ~quarter sales profit marketing ~market
		strategy ~company competitor pricing ~partner partnership vendor supplier invoice
		kpi roi ~margin stakeholder forecast ~board shareholder acquisition ~brand ~product
		~campaign conversion agency`,
	"social": `party ~friend hangout drinks brunch barbecue bbq gathering ~invite ~invitation
		~neighbor club community meetup celebrat reunion gossip ~buddy roommate potluck`,
	"work": `~meeting deadline project colleague coworker boss manager ~office ~shift promotion
		task team standup report email presentation job interview resume career hiring hire
		onboarding workload overtime sprint agenda memo kickoff`,
	"sports": `football soccer basketball baseball tennis golf hockey cricket rugby ~match coach
		player tournament league championship workout ~gym marathon swim cycling fitness
		stadium playoff referee athlete olympic ski climbing`,
	"politics": `election vote voter president congress senate parliament government ~policy
		democrat republican ~campaign candidate politic political politician minister governor
		mayor legislation ballot immigration protest referendum constitution`,
	"literature": `~book novel author poem poetry poet ~chapter fiction writer ~library publish
		publisher ~plot literature literary shakespeare memoir bookclub manuscript essay kindle
		audiobook genre`,
	"history": `history historic historical ancient war century empire civilization
		revolution medieval dynasty archaeolog museum ~king ~queen pharaoh roman colonial
		monument artifact heritage battle treaty`,
	"architecture": `architect architecture ~building skyscraper facade blueprint construction
		~concrete ~beam gothic bauhaus urban zoning cathedral ~bridge ~tower`,
	"music": `music musician song guitar piano drum ~band concert album chord melody lyric
		singer sing vocal violin playlist spotify rehearsal tempo rhythm metronome fret ~tune
		tuning orchestra jazz strum`,
	"weather": `weather ~rain snow storm forecast temperature sunny cloudy humid humidity wind
		windy thunder lightning hurricane tornado heatwave umbrella ~freezing drizzle fog hail
		celsius fahrenheit`,
	"news": `news headline ~article journalist reporter breaking ~media newspaper
		coverage scandal tweet`,
	"entertainment": `movie film ~shows ~series netflix tv television episode actor actress
		celebrity videogame gaming comedy theater theatre cinema trailer streaming youtube
		podcast anime festival sitcom documentary hbo disney marvel oscar`,
	"psychology": `anxiety anxious ~stress depression depressed therapist therapy emotion
		emotional mental trauma cognitive behavior behaviour mindfulness psycholog counselor
		panic burnout esteem personality introvert extrovert overwhelm coping calm`,
	"real": `~house apartment rent landlord tenant lease realtor property ~listing condo
		mortgage escrow appraisal ~bedroom neighborhood housing renovation zillow duplex`,
	"design": `~design designer logo font typography ~color ~colour palette ~layout mockup figma
		~sketch wireframe prototype interior aesthetic illustration graphic pixel decor
		furniture`,
	"family": `mom mum mother dad father sister brother grandma grandmother grandpa grandfather
		grandad aunt uncle cousin niece nephew family ~wife ~husband sibling inlaws grandparents
		~thanksgiving ~christmas kid kids child children son daughter`,
	"economics": `economy economic inflation recession gdp unemployment monetary fiscal ~supply
		~demand ~trade tariff deficit stimulus macroeconomic wage currency commodity economist`,
	"environment": `environment climate pollution ~recycle ~recycling carbon emission
		sustainab renewable solar ~plastic ~waste conservation wildlife ~forest deforestation
		~ocean ecosystem biodiversity compost greenhouse ~garden`,
}

// notCues are words that look like a lexicon stem plus a suffix but mean
// something else: a contractor is hired help, not a contract; booking a
// table has nothing to do with books.
var notCues = lexicon.NewSet(`contractor contractors booking bookings booked`)

// categoryPriority breaks ties between equally supported categories: the
// broad, everyday ones first, since thin evidence is more likely to belong
// to them than to a niche topic. Categories not listed follow in
// appliance.Categories order.
var categoryPriority = []appliance.Category{
	"work", "business", "family", "personal", "health", "finance", "parenting", "education",
	"social", "travel",
}

// categoryRank is each category's place in the tie-break order (lower wins).
var categoryRank = func() []int {
	rank := make([]int, len(appliance.Categories))
	for i := range rank {
		rank[i] = len(categoryPriority) + i
	}
	for r, c := range categoryPriority {
		for i, d := range appliance.Categories {
			if c == d {
				rank[i] = r
			}
		}
	}
	return rank
}()

// emojis gives every category one specific emoji. The structure prompt asks
// for "one specific, evocative emoji"; per-category is the closest an
// offline heuristic gets without inventing meaning.
var emojis = map[appliance.Category]string{
	"personal": "📝", "education": "📚", "health": "🩺", "finance": "💰", "legal": "⚖️",
	"philosophy": "🤔", "spiritual": "🙏", "science": "🔬", "entrepreneurship": "🚀",
	"parenting": "🧸", "romantic": "❤️", "travel": "✈️", "inspiration": "💡",
	"technology": "💻", "business": "💼", "social": "🥂", "work": "🗂️", "sports": "⚽",
	"politics": "🏛️", "literature": "📖", "history": "📜", "architecture": "🏗️",
	"music": "🎸", "weather": "⛅", "news": "📰", "entertainment": "🎬", "psychology": "🧩",
	"real": "🏠", "design": "🎨", "family": "👨‍👩‍👧", "economics": "📈", "environment": "🌱",
	"other": "💬",
}

// emojiFor never returns "": an unknown category gets the contract's default.
func emojiFor(c appliance.Category) string {
	if e, ok := emojis[c]; ok {
		return e
	}
	return appliance.DefaultEmoji
}

// stemSuffixes are the endings a lexicon stem may carry and still match.
// Suffixes that start with a vowel may also have eaten a final "e"
// ("hiking" → "hike"), so both forms are tried.
var stemSuffixes = []string{
	"s", "es", "ed", "ing", "er", "ers", "or", "ors", "ment", "ments", "al", "ally", "ly",
	"ic", "ics", "ical", "ist", "ists", "y", "ies", "ied", "ion", "ions", "ation", "ations",
	"e", "ive", "ity", "ities", "ance", "ence", "ful", "ness", "ship", "ial", "ian", "ians",
	"ure", "ures", "ous", "ism", "ings", "ology", "ologist", "ologists", "ability",
}

// suffixesByLast groups stemSuffixes by their last byte, so a word is only
// tried against the suffixes it could end with.
var suffixesByLast = func() (idx [256][]string) {
	for _, s := range stemSuffixes {
		idx[s[len(s)-1]] = append(idx[s[len(s)-1]], s)
	}
	return idx
}()

// cueEntry is what one lexicon stem signals: the categories (indexes in
// appliance.Categories) and, for each, whether it is only a weak cue there.
type cueEntry struct {
	cats []int
	weak []bool
}

// categoryIndex maps each lexicon stem to its cueEntry. Built once, on
// first use rather than at start-up; read-only afterwards.
var categoryIndex = sync.OnceValue(buildCategoryIndex)

func buildCategoryIndex() map[string]*cueEntry {
	idx := make(map[string]*cueEntry)
	for i, c := range appliance.Categories {
		for _, w := range strings.Fields(categoryCues[c]) {
			weak := strings.HasPrefix(w, "~")
			w = strings.TrimPrefix(w, "~")
			e := idx[w]
			if e == nil {
				e = &cueEntry{}
				idx[w] = e
			}
			e.cats = append(e.cats, i)
			e.weak = append(e.weak, weak)
		}
	}
	return idx
}

// categoryStems returns the categories a lowercase word signals (see
// categoryCue).
func categoryStems(w string) []int {
	if e := categoryCue(w); e != nil {
		return e.cats
	}
	return nil
}

// categoryCue returns the lexicon entry a lowercase word matches: an exact
// lexicon hit, or a stem plus one suffix, after dropping a possessive "'s".
// Stems shorter than four letters only take plural endings, so "war" never
// matches "ware". Words in notCues match nothing.
func categoryCue(w string) *cueEntry {
	if n := len(w); n > 3 && w[n-2] == '\'' && w[n-1] == 's' {
		w = w[:n-2]
	}
	if w == "" || inSet(notCues, w) {
		return nil
	}
	if e, ok := categoryIndex()[w]; ok {
		return e
	}
	for _, suf := range suffixesByLast[w[len(w)-1]] {
		if len(w) <= len(suf)+1 || !strings.HasSuffix(w, suf) {
			continue
		}
		base := w[:len(w)-len(suf)]
		plural := suf == "s" || suf == "es"
		if e := lookupStem(base, plural); e != nil {
			return e
		}
		if plural || !strings.ContainsRune("aeiouy", rune(suf[0])) {
			continue
		}
		if e := lookupStemE(base); e != nil {
			return e
		}
		if n := len(base); n >= 4 && base[n-1] == base[n-2] { // shopping → shop
			if e := lookupStem(base[:n-1], false); e != nil {
				return e
			}
		}
	}
	return nil
}

// lookupStemE is lookupStem(base+"e", false) without building the string
// for each word tried: indexing a map by string(bytes) does not allocate.
func lookupStemE(base string) *cueEntry {
	var buf [32]byte
	if len(base) >= len(buf) {
		return lookupStem(base+"e", false)
	}
	n := copy(buf[:], base)
	buf[n] = 'e'
	if n+1 < 4 {
		return nil
	}
	return categoryIndex()[string(buf[:n+1])]
}

func lookupStem(stem string, plural bool) *cueEntry {
	if len(stem) < 4 && !plural {
		return nil
	}
	return categoryIndex()[stem]
}

// Category scoring weights.
const (
	weakCueWeight  = 0.5 // a weak cue counts half
	repeatWeight   = 0.5 // each repetition of a word after the first
	maxRepeats     = 2   // repetitions beyond this add nothing
	titleCueWeight = 1.5 // a cue word the title names is the topic, not a passing mention
)

// classify picks the category with the most lexicon evidence. A word
// counts once plus a little for repetitions (so one word said five times
// cannot outvote several different ones), half if it is a weak cue, and
// more when the title, which names the transcript's main topics, contains
// it. A category needs at least one strong cue: weak cues alone ("book a
// table", "the recycling") leave the transcript "other". Ties go to the
// category with more distinct cue words, then to the broader category
// (categoryPriority), so the result is deterministic.
func classify(a *analysis, title string) appliance.Category {
	n := len(appliance.Categories)
	score := make([]float64, n)
	distinct := make([]int, n)
	strong := make([]bool, n)
	titleWords := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return r != '\'' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for _, f := range a.formList {
		e := f.cue
		if e == nil {
			continue
		}
		ev := 1 + repeatWeight*float64(min(f.count-1, maxRepeats))
		for _, tw := range titleWords {
			if tw == f.lower {
				ev *= titleCueWeight
				break
			}
		}
		for k, c := range e.cats {
			w := ev
			if e.weak[k] {
				w *= weakCueWeight
			} else {
				strong[c] = true
			}
			score[c] += w
			distinct[c]++
		}
	}
	best := -1
	for i := range appliance.Categories {
		if !strong[i] {
			continue
		}
		if best < 0 || score[i] > score[best] ||
			score[i] == score[best] && (distinct[i] > distinct[best] ||
				distinct[i] == distinct[best] && categoryRank[i] < categoryRank[best]) {
			best = i
		}
	}
	if best < 0 {
		return appliance.CategoryOther
	}
	return appliance.Categories[best]
}
