package builtin

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// Realistic transcripts shared by the tests. Each is written the way speech
// to text delivers it: several segments, some fillers, uneven punctuation.

type sample struct {
	name       string
	segments   []string
	language   string
	categories []appliance.Category // acceptable categories
	keywords   []string             // at least one must appear in the title
}

var samples = []sample{
	{
		name: "budget meeting",
		segments: []string{
			"Okay everyone, let's start the quarterly budget review.",
			"Revenue is up eight percent this quarter, but marketing spend went over budget again.",
			"We need to cut the travel budget for next quarter and renegotiate two vendor contracts.",
			"The hiring plan depends on the budget review too. We want two engineers and one designer.",
			"Sarah, can you send the revised budget numbers and the hiring plan by Friday?",
		},
		categories: []appliance.Category{"business", "finance"},
		keywords:   []string{"budget", "revenue", "hiring"},
	},
	{
		name: "doctor visit",
		segments: []string{
			"So the doctor said the headaches are probably from the new blood pressure medication.",
			"She wants me to lower the dose and track my symptoms every morning for two weeks.",
			"If the headaches keep coming back she will order blood tests and maybe switch the prescription.",
			"I also have to pick up the refill at the pharmacy before it closes.",
		},
		categories: []appliance.Category{"health"},
		keywords:   []string{"headaches", "medication", "blood", "doctor", "symptoms", "prescription"},
	},
	{
		name: "trip plan",
		segments: []string{
			"For the Lisbon trip I booked the flight for the twelfth, we land at the airport around noon.",
			"The hotel is near the old town, and we still need to renew your passport before we travel.",
			"Let's plan a day trip to Sintra and maybe one beach day in Cascais.",
			"I'll put the whole itinerary in a shared doc so we don't forget the train times.",
		},
		categories: []appliance.Category{"travel"},
		keywords:   []string{"trip", "lisbon", "flight", "hotel", "itinerary"},
	},
	{
		name: "guitar practice",
		segments: []string{
			"Let's run the song from the top, watch the chord change into the bridge.",
			"Your strumming is rushing a bit, try it with the metronome at ninety.",
			"The G to C chord change is the hard part, practice that transition slowly.",
			"Then we can add the melody on the second guitar and record a rough take.",
		},
		categories: []appliance.Category{"music"},
		keywords:   []string{"chord", "guitar", "song", "melody", "metronome"},
	},
	{
		name: "kid's school chat",
		segments: []string{
			"How was school today, buddy? Did your teacher like the volcano project?",
			"My son said the kids in his class loved it, but he forgot his homework folder again.",
			"We should talk about bedtime, he has been staying up way too late on school nights.",
			"And don't forget the school pickup is at two on Friday because of the parent conferences.",
		},
		categories: []appliance.Category{"parenting", "family"},
		keywords:   []string{"school", "son", "kids", "bedtime", "homework", "teacher"},
	},
	{
		name: "lawyer contract dispute",
		segments: []string{
			"I talked to the lawyer about the contract dispute with the contractor.",
			"She thinks the termination clause is on our side, and the contractor breached the contract first.",
			"If they don't settle she would file a lawsuit in small claims court next month.",
			"We need to send her the signed contract and every email about the delays.",
		},
		categories: []appliance.Category{"legal"},
		keywords:   []string{"contract", "lawyer", "lawsuit", "dispute", "clause"},
	},
	{
		name: "software deploy bug",
		segments: []string{
			"The deploy last night broke the login API for about twenty minutes.",
			"It was a bug in the database migration, the new index locked the sessions table.",
			"We rolled back the server, and the fix is in a pull request on GitHub now.",
			"Before the next deploy let's add a test that runs the migration against production data.",
		},
		categories: []appliance.Category{"technology"},
		keywords:   []string{"deploy", "migration", "database", "api", "bug", "login"},
	},
	{
		name: "movie night",
		segments: []string{
			"Did you finish the new season of that Netflix series? The last episode was wild.",
			"I still think the movie was better, the actors in the film had way more chemistry.",
			"We should watch the documentary on Saturday, it just came out on streaming.",
		},
		categories: []appliance.Category{"entertainment"},
		keywords:   []string{"netflix", "series", "episode", "movie", "documentary", "season"},
	},
	{
		name: "storm forecast",
		segments: []string{
			"The weather forecast says a big storm is coming in tonight with heavy rain and strong wind.",
			"Temperature drops below freezing by Sunday, so there might be snow on the roads.",
			"Bring the patio chairs in before the storm and grab an umbrella for tomorrow.",
		},
		categories: []appliance.Category{"weather"},
		keywords:   []string{"storm", "weather", "forecast", "rain", "snow"},
	},
	{
		name: "apartment hunt",
		segments: []string{
			"The landlord called back about the two bedroom apartment on Elm Street.",
			"Rent is twenty one hundred a month and the lease is twelve months with a deposit.",
			"The neighborhood is quiet but the apartment needs some renovation in the kitchen.",
			"Let's ask the realtor if the rent is negotiable before we sign the lease.",
		},
		categories: []appliance.Category{"real"},
		keywords:   []string{"apartment", "rent", "lease", "landlord"},
	},
	{
		name: "election debate",
		segments: []string{
			"Did you watch the senate debate last night? Both candidates dodged the immigration question.",
			"The election is in three weeks and the polls say it is basically tied.",
			"I still need to register to vote and figure out where my ballot goes.",
		},
		categories: []appliance.Category{"politics"},
		keywords:   []string{"debate", "election", "senate", "candidates", "ballot", "vote"},
	},
	{
		name: "soccer practice",
		segments: []string{
			"Coach moved soccer practice to Thursday because the field is closed.",
			"We have a tournament match against the Rovers on Saturday and the league standings are tight.",
			"I need to get new cleats before the match, mine are falling apart.",
		},
		categories: []appliance.Category{"sports"},
		keywords:   []string{"soccer", "practice", "match", "tournament", "coach"},
	},
	{
		name: "therapy session notes",
		segments: []string{
			"My therapist said the anxiety spikes on Sunday nights are about work stress, not the job itself.",
			"She suggested a grounding exercise when the panic starts and writing down the anxious thoughts.",
			"We talked about burnout too, and coping with stress without shutting down emotionally.",
		},
		categories: []appliance.Category{"psychology"},
		keywords:   []string{"anxiety", "therapist", "stress", "panic", "burnout"},
	},
	{
		name: "book club",
		segments: []string{
			"For book club this month we're reading the new novel by that Irish author.",
			"I'm on chapter nine, the plot twist with the sister's letters is incredible.",
			"The author's writing reminds me of the memoir we read in spring.",
		},
		categories: []appliance.Category{"literature"},
		keywords:   []string{"book", "novel", "author", "chapter", "club"},
	},
	{
		name: "recycling and climate",
		segments: []string{
			"The city is changing the recycling rules, plastic bags can't go in the blue bin anymore.",
			"They also want to cut carbon emissions by half, mostly with solar on public buildings.",
			"We should start composting too, half our waste is food scraps.",
		},
		categories: []appliance.Category{"environment"},
		keywords:   []string{"recycling", "carbon", "emissions", "plastic", "solar", "waste", "composting"},
	},
	{
		name: "startup fundraising",
		segments: []string{
			"We have about nine months of runway, so the seed round has to close by summer.",
			"Two investors liked the pitch deck, but they want more traction before the valuation talk.",
			"Let's ship the MVP to the pilot customers and update the pitch with real usage numbers.",
		},
		categories: []appliance.Category{"entrepreneurship"},
		keywords:   []string{"pitch", "investors", "runway", "seed", "round", "traction", "mvp"},
	},
	{
		name: "family dinner",
		segments: []string{
			"Grandma wants everyone at her place for Thanksgiving dinner this year.",
			"My brother is bringing the kids, and Aunt Linda is flying in with my cousin.",
			"Mom asked if we can make the pies, and Dad is handling the turkey again.",
		},
		categories: []appliance.Category{"family"},
		keywords:   []string{"thanksgiving", "grandma", "dinner", "family"},
	},
	{
		name: "no lexicon words",
		segments: []string{
			"The blue widget squeaks whenever the gizmo rotates clockwise near the lamp.",
			"Maybe the gizmo wobbles because the widget bracket bent.",
		},
		categories: []appliance.Category{"other"},
		keywords:   []string{"widget", "gizmo"},
	},
}

func (s sample) input() appliance.TranscriptInput {
	return appliance.TranscriptInput{Segments: segments(s.segments...), Language: s.language}
}

func segments(texts ...string) []appliance.TranscriptSegment {
	segs := make([]appliance.TranscriptSegment, len(texts))
	for i, t := range texts {
		segs[i] = appliance.TranscriptSegment{
			ID: "seg" + strings.Repeat("x", i), Text: t, Speaker: appliance.DefaultSpeaker,
			Start: float64(i * 5), End: float64(i*5 + 5),
		}
	}
	return segs
}
