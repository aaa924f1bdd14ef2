package embed

import (
	"cmp"
	"slices"
	"testing"
)

// TestSemantic checks that texts which share topic words, inflections or a
// misspelt word sit clearly closer than unrelated ones.
func TestSemantic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, anchor, near, far string
	}{
		{"paraphrase", "quarterly budget review", "reviewing the budget for the quarter", "my daughter's piano recital"},
		{"morphology", "budgets", "budgeting", "piano"},
		{"morphology plural", "planning the family trips", "we planned a family trip", "the car needs new brakes"},
		{"typo", "restaurant", "restaurnat", "dentist"},
		{"typo in context", "book a table at the italian restaurant", "the itallian resturant booking", "call the plumber about the sink"},
		{"stop words ignored", "the meeting about the budget", "budget meeting", "the meeting about the garden"},
		{"shared entity", "Emma's piano recital on Saturday", "when does Emma play piano", "quarterly budget review"},
		{"numbers", "flight 447 to Tokyo", "Tokyo flight 447", "flight to Paris"},
		{"chinese", "我们明天要开会讨论项目预算", "项目预算需要增加", "我女儿的钢琴演奏会"},
		{"japanese", "明日の会議で予算を話します", "予算の会議", "娘のピアノの発表会"},
	}
	const margin = 0.15
	for _, tt := range tests {
		v := mustEmbed(t, tt.anchor, tt.near, tt.far)
		near, far := cosine(v[0], v[1]), cosine(v[0], v[2])
		t.Logf("%-20s near %.3f  far %.3f", tt.name, near, far)
		if near < far+margin {
			t.Errorf("%s: cosine(%q, %q) = %.3f, not clearly above cosine with %q = %.3f",
				tt.name, tt.anchor, tt.near, near, tt.far, far)
		}
	}
}

// TestStopWordOnly checks that texts made only of stop words neither
// collapse onto one vector nor onto the vectors of content texts.
func TestStopWordOnly(t *testing.T) {
	t.Parallel()
	texts := []string{"what is it", "where are they", "yeah okay", "", "quarterly budget review", "it is the budget"}
	v := mustEmbed(t, texts...)
	for i := range 4 {
		for j := i + 1; j < len(texts); j++ {
			if c := cosine(v[i], v[j]); c > 0.9 {
				t.Errorf("cosine(%q, %q) = %.3f: collapsed", texts[i], texts[j], c)
			}
		}
	}
	// Stop words in a content text are ignored, not mixed in.
	if c := cosine(v[4], mustEmbed(t, "the quarterly budget review is what it is")[0]); c < 0.999 {
		t.Errorf("stop words changed a content text's vector: cosine %.4f", c)
	}
}

var memories = []string{
	"User's daughter Emma has a piano recital on Saturday at 3pm",
	"User is training for the Berlin marathon in September",
	"User's dentist appointment was moved to next Tuesday morning",
	"User prefers oat milk in coffee and avoids dairy",
	"The quarterly budget review with finance is scheduled for Friday",
	"User's landlord agreed to fix the leaking kitchen faucet",
	"User wants to learn Spanish before the trip to Madrid",
	"User's car needs new brake pads and an oil change",
	"User's mother is recovering well after knee surgery",
	"User is allergic to penicillin",
	"Team decided to migrate the database from Postgres to SQLite",
	"User plans to repaint the bedroom a light green color",
	"User's favorite restaurant is the Thai place on Elm Street",
	"User is reading a biography of Abraham Lincoln",
	"User's son started kindergarten this fall and loves his teacher",
	"User adopted a rescue dog named Biscuit",
	"User's flight to Tokyo departs on March 14 from gate 22",
	"Advice from Sam: negotiate salary after the offer, not before",
	"User keeps forgetting to water the tomato plants on the balcony",
	"User's sister is getting married in June in Lisbon",
	"User switched to a standing desk to help with back pain",
	"User is saving money for a down payment on a house",
	"User's laptop battery drains quickly and needs replacing",
	"User volunteers at the food bank every other Sunday",
	"User's book club is reading a mystery novel this month",
	"User is trying to cut back on caffeine after 2pm",
	"The product launch was postponed until the security audit finishes",
	"User's grandfather served in the navy and loves telling stories",
	"User signed up for a pottery class on Wednesday evenings",
	"User's password manager subscription renews in December",
}

// TestRetrieval ranks the memories by cosine for queries worded unlike the
// memory they should find (other inflections, typos, extra words, one
// synonym the embedder cannot know).
func TestRetrieval(t *testing.T) {
	t.Parallel()
	queries := []struct {
		q    string
		want int
	}{
		{"when is Emma's piano recital", 0},
		{"sister's wedding in Lisbon", 19},
		{"rescheduled dentist appointments", 2},
		{"budget reviews with the finance team", 4},
		{"kitchen faucet leaks", 5},
		{"which dog did we adopt", 15},
		{"my mom's operation", 8}, // no shared word: only "mom"/"mother" n-grams
		{"allergies to penicilin", 9},
		{"flights to tokyo", 16},
		{"salary negotiation advice", 17},
	}
	corpus := mustEmbed(t, memories...)
	at1, at3 := 0, 0
	for _, q := range queries {
		qv := mustEmbed(t, q.q)[0]
		idx := make([]int, len(corpus))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(cosine(qv, corpus[b]), cosine(qv, corpus[a])) })
		rank := slices.Index(idx, q.want)
		if rank == 0 {
			at1++
		}
		if rank < 3 {
			at3++
		} else {
			t.Logf("miss: %q ranks %q at %d (top: %q)", q.q, memories[q.want], rank+1, memories[idx[0]])
		}
	}
	r1, r3 := float64(at1)/float64(len(queries)), float64(at3)/float64(len(queries))
	t.Logf("recall@1 = %.2f, recall@3 = %.2f", r1, r3)
	if r3 < 0.8 {
		t.Errorf("recall@3 = %.2f, want ≥ 0.8", r3)
	}
}
