package builtin

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance"
)

func TestBuiltinMemories(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)
	sys := func(c string) appliance.Memory { return appliance.Memory{Content: c, Category: appliance.MemorySystem} }
	tip := func(c string) appliance.Memory {
		return appliance.Memory{Content: c, Category: appliance.MemoryInteresting}
	}
	tests := []struct {
		name  string
		turns []turn
		want  []appliance.Memory
	}{
		{"allergy", []turn{{"U", "I'm allergic to peanuts, so no satay please."}}, []appliance.Memory{sys("User is allergic to peanuts")}},
		{"name of a relation", []turn{{"U", "My daughter's name is Mia and she starts school in the fall."}},
			[]appliance.Memory{sys("User's daughter's name is Mia")}},
		{"work and move, capped at two", []turn{{"U", "I moved to Lisbon in August. I work at Feedzai now. I'm vegetarian too."}},
			[]appliance.Memory{sys("User moved to Lisbon in August"), sys("User works at Feedzai")}},
		{"preference", []turn{{"U", "I prefer window seats on long flights."}}, []appliance.Memory{sys("User prefers window seats on long flights")}},
		{"reported advice", []turn{{"U", "My doctor said I should walk thirty minutes a day."}},
			[]appliance.Memory{tip("Advice from user's doctor: walk thirty minutes a day")}},
		{"another speaker's wisdom", []turn{{"U", "How do you stay so calm?"}, {"1", "You should always sleep on big decisions."}},
			[]appliance.Memory{tip("Advice from Speaker 1: always sleep on big decisions")}},
		{"the trick is", []turn{{"U", "Your bread is great."}, {"1", "The trick with sourdough is to feed the starter twice a day."}},
			[]appliance.Memory{tip("Advice from Speaker 1: the trick with sourdough is to feed the starter twice a day")}},
		{"someone else's facts", []turn{{"U", "Nice."}, {"1", "I'm allergic to cats and I work at the bakery."}}, []appliance.Memory{}},
		{"a dated trip", []turn{{"1", "For Kenya you'll need yellow fever."}, {"U", "I leave on April fifteenth. Is that enough time?"}},
			[]appliance.Memory{sys("User is travelling on April 15")}},
		{"a question said on ends the fact", []turn{{"1", "for kenya you'll need yellow fever"}, {"U", "i leave on april fifteenth is that enough time"}},
			[]appliance.Memory{sys("User is travelling on April 15")}},
		{"a routine is no trip", []turn{{"U", "I leave for work at eight every day so mornings are hard."}}, []appliance.Memory{}},
		{"a commute is no trip", []turn{{"U", "I leave for work on Monday at seven."}}, []appliance.Memory{}},
		{"a spelled code", []turn{{"U", "My goal is to pass the n five in july."}}, []appliance.Memory{sys("User's goal is to pass the N5 in july")}},
		{"a named pet", []turn{{"U", "my dog biscuit is limping again"}}, []appliance.Memory{sys("User has a dog named Biscuit")}},
		{"a pet without a name", []turn{{"U", "my dog is limping again"}}, []appliance.Memory{}},
		{"a condition named by its care", []turn{{"1", "Check your sugar before meals and keep a log."}, {"U", "OK, I will."}},
			[]appliance.Memory{sys("User has diabetes")}},
		{"a diet is no condition", []turn{{"1", "Cut your sugar intake a little."}, {"U", "OK, I will."}}, []appliance.Memory{}},
		{"a condition owned", []turn{{"U", "My asthma gets worse in the cold."}}, []appliance.Memory{sys("User has asthma")}},
		{"a role named to the user", []turn{{"1", "So how are you feeling about the team lead role?"}, {"U", "Excited, a bit nervous."}},
			[]appliance.Memory{sys("User is moving into a team lead role")}},
		{"a role's paperwork is no role", []turn{{"1", "Can you review the team lead role description?"}, {"U", "Sure."}},
			[]appliance.Memory{}},
		{"not a fan", []turn{{"U", "I'm not a big fan of cilantro, to be fair."}}, []appliance.Memory{sys("User doesn't like cilantro")}},
		{"can't stand", []turn{{"U", "I can't stand horror movies."}}, []appliance.Memory{sys("User can't stand horror movies")}},
		{"diagnosed", []turn{{"U", "I was diagnosed with celiac disease last year."}}, []appliance.Memory{sys("User was diagnosed with celiac disease last year")}},
		{"the household's pets", []turn{{"U", "We have two cats and a very old dog."}}, []appliance.Memory{sys("User has two cats and a very old dog")}},
		{"a role accepted", []turn{{"1", "So will you be my maid of honor?"}, {"U", "Oh my gosh, yes, of course!"}, {"1", "The wedding is June twelfth in Savannah."}},
			[]appliance.Memory{sys("User will be maid of honor at the wedding on June 12 in Savannah")}},
		{"a role declined", []turn{{"1", "Will you be my best man?"}, {"U", "No, sorry, I can't."}}, []appliance.Memory{}},
		// The user's people by relation and name, and named people's people.
		{"a relation and a name, run on", []turn{{"U", "good news my daughter lucy got into the nursing programme in leeds she starts in september"}},
			[]appliance.Memory{sys("User's daughter Lucy got into the nursing programme in leeds")}},
		{"a neighbour's occupation through he", []turn{{"U", "My neighbour Tom helped with the shelves. He's a retired electrician."}},
			[]appliance.Memory{sys("User's neighbour is a retired electrician")}},
		{"a relation's new job", []turn{{"U", "My brother started a new job at the airport last week."}},
			[]appliance.Memory{sys("User's brother started a new job at the airport last week")}},
		{"a named person's relation", []turn{{"U", "Lunch with Sara was fun. Sara's son turns ten on the 3rd of May."}},
			[]appliance.Memory{sys("Sara's son turns ten on May 3")}},
		{"trouble is no admission", []turn{{"U", "my son got into trouble at school again"}}, []appliance.Memory{}},
		{"a thing got is no career", []turn{{"U", "My dad got a new car for his birthday."}}, []appliance.Memory{}},
		{"a cold is no change", []turn{{"U", "My sister had a cold all week, poor thing."}}, []appliance.Memory{}},
		{"a bag left is no change", []turn{{"U", "My son left his bag on the bus again."}}, []appliance.Memory{}},
		{"a baby is a change", []turn{{"U", "My cousin had a baby girl last night!"}}, []appliance.Memory{sys("User's cousin had a baby girl last night")}},
		{"a baby due", []turn{{"1", "Are you finding out if it's a boy or a girl?"}, {"U", "No, we want a surprise. The baby's due in June."}},
			[]appliance.Memory{sys("User is expecting a baby due in June")}},
		{"a due date of a bill is no baby", []turn{{"U", "The gas bill is due on Friday."}}, []appliance.Memory{}},
		{"a named friend's news and her relation", []turn{{"U", "Had lunch with Jenna today, she's just got a new job at the library. Her son Leo is allergic to eggs."}},
			[]appliance.Memory{sys("Jenna has just got a new job at the library"), sys("Jenna's son Leo is allergic to eggs")}},
		{"a named friend's mood is no fact", []turn{{"U", "Talked to Jenna today, she's really tired. Her boss is a nightmare."}}, []appliance.Memory{}},
		{"an allergy given as an answer", []turn{{"1", "Do you have any allergies?"}, {"U", "Latex. And I get a rash from plasters."}},
			[]appliance.Memory{sys("User is allergic to latex")}},
		{"an allergy given as an answer, unpunctuated", []turn{{"1", "any allergies"}, {"U", "penicillin i break out in hives"}},
			[]appliance.Memory{sys("User is allergic to penicillin")}},
		{"no allergies", []turn{{"1", "Any allergies I should know about?"}, {"U", "No, none."}}, []appliance.Memory{}},
		{"an answer that is a sentence", []turn{{"1", "Any allergies?"}, {"U", "I think I was once, as a kid."}}, []appliance.Memory{}},
		{"a mood is no occupation", []turn{{"U", "My boss is a nightmare this week."}}, []appliance.Memory{}},
		{"a habit", []turn{{"U", "I swim every morning before work."}}, []appliance.Memory{sys("User swims every morning before work")}},
		{"the talk is no habit", []turn{{"U", "I think every option is fine."}}, []appliance.Memory{}},
		{"an age to come", []turn{{"U", "I'm turning forty in March."}}, []appliance.Memory{sys("User is turning forty in March")}},
		{"I've got", []turn{{"U", "I've got two kids, so weekends are busy."}}, []appliance.Memory{sys("User has two kids")}},
		{"a trip of the household", []turn{{"U", "We're flying to Lisbon in May for my sister's wedding."}},
			[]appliance.Memory{sys("User is travelling to Lisbon in May for their sister's wedding")}},
		{"an errand is no trip", []turn{{"U", "I'm heading to the store, need anything?"}}, []appliance.Memory{}},
		{"a relation's birthday", []turn{{"U", "My mom's birthday is on the 3rd of May."}}, []appliance.Memory{sys("User's mom's birthday is on May 3")}},
		{"mood is no identity", []turn{{"U", "I'm a bit tired today, long week at work."}}, []appliance.Memory{}},
		{"hypothetical", []turn{{"U", "If I lived in Paris I would eat croissants daily."}}, []appliance.Memory{}},
		{"too short", []turn{{"U", "I'm vegan."}}, []appliance.Memory{}},
		{"adverb before the verb", []turn{{"U", "Aisle seat please. I always prefer the aisle on trains."}},
			[]appliance.Memory{sys("User prefers the aisle on trains")}},
		{"dislike", []turn{{"U", "i don't like eggs but i can do yogurt"}}, []appliance.Memory{sys("User doesn't like eggs")}},
		{"a reaction is no preference", []turn{{"1", "We could try the new place."}, {"U", "I like that idea, I love it."}}, []appliance.Memory{}},
		{"pursuits", []turn{{"U", "i'm learning japanese on my phone and i'm training for the half marathon"}},
			[]appliance.Memory{sys("User is learning japanese on their phone"), sys("User is training for the half marathon")}},
		{"thinking about is a plan only with an -ing", []turn{{"U", "I'm thinking about it. I'm thinking about going freelance next year."}},
			[]appliance.Memory{sys("User is thinking about going freelance next year")}},
		{"the household moves", []turn{{"U", "We're moving to Denver in the spring, finally."}},
			[]appliance.Memory{sys("User's family is moving to Denver in the spring")}},
		{"relations mid-clause, several, cut by a supposition", []turn{{"U", "gift ideas mom likes gardening and lavender candles dad wants a new fishing reel maybe the shimano one"}},
			[]appliance.Memory{sys("User's mom likes gardening and lavender candles"), sys("User's dad wants a new fishing reel")}},
		{"a relation's fact said to the user", []turn{{"U", "I'll bring the pie."}, {"1", "Don't forget your brother is vegetarian now."}},
			[]appliance.Memory{sys("User's brother is vegetarian")}},
		{"another speaker's own relation", []turn{{"U", "How's the family?"}, {"1", "Good, my sister lives in Porto now."}}, []appliance.Memory{}},
		{"a relative date is written out", []turn{{"U", "Grandma turns ninety on the twenty-first, can you believe it."}},
			[]appliance.Memory{sys("User's grandma turns ninety on March 21")}},
		{"a date in another year", []turn{{"U", "Our anniversary is on January 4th, ten years."}},
			[]appliance.Memory{sys("User's anniversary is on January 4, 2027")}},
		{"he and she are the person last named", []turn{{"1", "What are you getting your dad for Christmas?"}, {"U", "He's been into woodworking since he retired, so chisels."}},
			[]appliance.Memory{sys("User's dad has been into woodworking")}},
		{"he is nobody without a person named", []turn{{"1", "The plumber came by this morning."}, {"U", "He's from Leeds, he likes football a lot."}}, []appliance.Memory{}},
		{"she is not he", []turn{{"U", "My brother called me last night."}, {"1", "She likes hiking a lot."}}, []appliance.Memory{}},
		{"if possible is a courtesy", []turn{{"U", "Aisle seat if possible, I always prefer the aisle."}}, []appliance.Memory{sys("User prefers the aisle")}},
		{"a note without its subject", []turn{{"U", "signed up to volunteer at the food bank every second saturday"}},
			[]appliance.Memory{sys("User signed up to volunteer at the food bank every second saturday")}},
		{"one class is a plan, not a habit", []turn{{"U", "I signed up for the spin class on Tuesday with Jess."}}, []appliance.Memory{}},
		{"joined", []turn{{"U", "I joined a running club near the office this month."}}, []appliance.Memory{sys("User joined a running club near the office this month")}},
		{"a judgement of the user's", []turn{{"U", "Note to self: the oat flat white at Blue Door is the best coffee in town."}},
			[]appliance.Memory{sys("User thinks the oat flat white at Blue Door is the best coffee in town")}},
		{"the best thing is no judgement", []turn{{"U", "The best thing is to wait and see what they say."}}, []appliance.Memory{}},
		{"a favourite", []turn{{"U", "My favourite novel this year is still the one about the game designers."}},
			[]appliance.Memory{sys("User's favourite novel this year is still the one about the game designers")}},
		{"a new job", []turn{{"U", "Big news, I just started a new job at the hospital in Leeds."}},
			[]appliance.Memory{sys("User started a new job at the hospital in Leeds")}},
		{"promoted and quitting", []turn{{"U", "I got promoted last week. And I quit smoking in May."}},
			[]appliance.Memory{sys("User got promoted last week"), sys("User quit smoking in May")}},
		{"left the keys is no life change", []turn{{"U", "I left my keys at the office again, and I got a coffee on the way."}}, []appliance.Memory{}},
		{"the household", []turn{{"U", "We got engaged on the beach last night!"}}, []appliance.Memory{sys("User and their partner got engaged on the beach last night")}},
		{"a supposition voids the fact", []turn{{"U", "Maybe my sister likes jazz, I never asked her."}}, []appliance.Memory{}},
		// States come into, ways of working, goals, homes, people's news,
		// results read out, things learned with their source.
		{"a state come into", []turn{{"U", "Since last spring I've been vegetarian."}}, []appliance.Memory{sys("User is vegetarian")}},
		{"a spell, with since", []turn{{"1", "how did you sleep"}, {"U", "badly i've been sleeping badly since the surgery"}},
			[]appliance.Memory{sys("User has been sleeping badly since the surgery")}},
		{"a spell without since or how is none", []turn{{"U", "I've been feeling fine, thanks."}}, []appliance.Memory{}},
		{"how the user works best", []turn{{"U", "i do my best thinking on long walks"}}, []appliance.Memory{sys("User does their best thinking on long walks")}},
		{"a goal with a horizon", []turn{{"U", "I want to run a half marathon this year."}}, []appliance.Memory{sys("User wants to run a half marathon this year")}},
		{"a wish without one is none", []turn{{"U", "I want to go home and sleep."}}, []appliance.Memory{}},
		{"a home bought", []turn{{"1", "Where are you living now?"}, {"U", "We bought a house in Portland last summer."}},
			[]appliance.Memory{sys("User bought a house in Portland last summer")}},
		{"a toddler", []turn{{"U", "Busy. I have a toddler at home, so I'm always tired."}}, []appliance.Memory{sys("User has a toddler at home")}},
		{"a relation's news", []turn{{"U", "My sister Ana just moved to Berlin for a new job."}},
			[]appliance.Memory{sys("User's sister Ana just moved to Berlin for a new job")}},
		{"a result read out", []turn{{"1", "Your iron levels are quite low, so I'd like you to start a supplement."}, {"U", "Okay."}},
			[]appliance.Memory{sys("User's iron levels are low")}},
		{"a result of someone else's is none", []turn{{"1", "The iron levels in the soil are quite low."}, {"U", "Okay."}}, []appliance.Memory{}},
		{"a thing learned, with its source", []turn{{"U", "Heard on the radio that sharks are older than trees."}},
			[]appliance.Memory{tip("Sharks are older than trees")}},
		{"apparently, about the world", []turn{{"U", "apparently the great wall is not visible from space with the naked eye"}},
			[]appliance.Memory{tip("The great wall is not visible from space with the naked eye")}},
		{"apparently, about a plan, is none", []turn{{"U", "Apparently the meeting moved to Thursday at 3."}}, []appliance.Memory{}},
		{"a preference pointed at is none", []turn{{"U", "I prefer the blue one."}}, []appliance.Memory{}},
		{"a favourite pointed at is none", []turn{{"U", "My favourite is the chocolate one."}}, []appliance.Memory{}},
		{"a place pointed at is none", []turn{{"U", "i'm from here actually"}}, []appliance.Memory{}},
		{"a liking for it is none", []turn{{"U", "I prefer it this way."}}, []appliance.Memory{}},
		{"a thing recalled by name is kept", []turn{{"U", "My mom likes gardening and those lavender candles."}},
			[]appliance.Memory{sys("User's mom likes gardening and those lavender candles")}},
		{"apparently, about people, is none", []turn{{"U", "Apparently they are not coming after all."}}, []appliance.Memory{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := New().Memories(context.Background(), dialogueInput(start, tt.turns...))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("memories (-want +got):\n%s", d)
			}
		})
	}
}

func TestBuiltinMemoriesNonEnglishAndCancelled(t *testing.T) {
	t.Parallel()
	in := dialogueInput(time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC), turn{"U", "Soy alérgico a los cacahuetes y trabajo en Madrid."})
	in.Language = "es"
	got, err := New().Memories(context.Background(), in)
	if err != nil || len(got) != 0 {
		t.Errorf("spanish: %v, %v; want none", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New().Memories(ctx, in); err == nil {
		t.Error("cancelled context: want an error")
	}
}
