package builtin

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance"
)

// turn is one segment of a test dialogue: the user's ("U") or another
// speaker's ("1", "2").
type turn struct{ who, text string }

func dialogueInput(start time.Time, turns ...turn) appliance.TranscriptInput {
	segs := make([]appliance.TranscriptSegment, len(turns))
	for i, t := range turns {
		s := appliance.TranscriptSegment{Text: t.text, Start: float64(i * 5), End: float64(i*5 + 4)}
		switch t.who {
		case "U":
			s.Speaker, s.IsUser = "SPEAKER_00", true
		case "X":
			s.Speaker = "SPEAKER_00" // user not identified
		default:
			s.Speaker = "SPEAKER_0" + t.who
		}
		segs[i] = s
	}
	return appliance.TranscriptInput{Segments: segs, Language: "en", StartedAt: start, Location: start.Location()}
}

// item is an action item in local wall time, for readable expectations.
type item struct {
	Desc string
	Due  string // "2006-01-02 15:04" local, "" for none
}

func items(s appliance.Structured, loc *time.Location) []item {
	out := []item{}
	for _, it := range s.ActionItems {
		x := item{Desc: it.Description}
		if it.DueAt != nil {
			x.Due = it.DueAt.In(loc).Format("2006-01-02 15:04")
		}
		out = append(out, x)
	}
	return out
}

func TestBuiltinActionItems(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	tue := time.Date(2026, 3, 10, 10, 0, 0, 0, ny) // Tuesday
	tests := []struct {
		name  string
		turns []turn
		want  []item
	}{
		{"a thing to leave in a state", []turn{{"U", "i'll have the draft ready by monday morning"}},
			[]item{{"Have the draft ready", "2026-03-16 09:00"}}},
		{"a thing to leave paid, by the close of a day", []turn{{"U", "I'll have the invoice paid by close of business Friday."}},
			[]item{{"Have the invoice paid", "2026-03-13 17:00"}}},
		{"having a thing is no task", []turn{{"U", "I'll have the salmon."}}, []item{}},
		{"a memo's imperative said politely", []turn{{"U", "Please send the report to my manager tomorrow morning."}},
			[]item{{"Send the report to my manager", "2026-03-11 09:00"}}},
		{"the hour asked for, settled by the answer", []turn{{"1", "Can you call me back this afternoon?"}, {"U", "Sure, I'll call you back at 3."}},
			[]item{{"Call Speaker 1 back", "2026-03-10 15:00"}}},
		{"an instruction joined by so", []turn{{"1", "I'd like to see you again in six weeks, so book a follow-up at the front desk."}, {"U", "Okay, will do."}},
			[]item{{"Book a follow-up at the front desk", ""}}},
		{"an instruction joined by and, on a condition, is no task", []turn{{"1", "The swelling should go down, and call us if it gets worse."}, {"U", "Okay."}}, []item{}},
		{"going to a place is no task", []turn{{"U", "I'm going to Chicago next week for work."}}, []item{}},
		{"going to a place, as a recogniser writes it", []turn{{"U", "i'm going to paris in march"}}, []item{}},
		{"going to do a thing is one", []turn{{"U", "i'm going to call the plumber tomorrow"}},
			[]item{{"Call the plumber", "2026-03-11 23:59"}}},
		{"a thing not to do is no task", []turn{{"1", "The scan is on the 19th at 8:15, please don't eat after midnight."}, {"U", "Okay, thank you."}}, []item{}},
		{"a thing to remember is no task", []turn{{"U", "remind me the parents evening is thursday at six"}}, []item{}},
		{"making a meeting is being at it", []turn{{"1", "Can you make a 9 am standup tomorrow?"}, {"U", "Yes."}}, []item{}},
		{"making dinner is a deed", []turn{{"1", "Can you make the dinner tomorrow?"}, {"U", "Yes."}},
			[]item{{"Make the dinner", "2026-03-11 23:59"}}},
		{"an hour said with then is on the day the talk is about", []turn{{"1", "Your car will be ready on Friday."}, {"1", "We close at seven."}, {"U", "Great, I'll pick it up at four then."}},
			[]item{{"Pick up the car", "2026-03-13 16:00"}}},
		{"an hour without then is today's", []turn{{"1", "Your car will be ready on Friday."}, {"U", "Great. I'll call the insurer at four."}},
			[]item{{"Call the insurer", "2026-03-10 16:00"}}},
		{"a noun that is also a verb is no imperative", []turn{{"U", "book club is at my place on friday at seven thirty"}}, []item{}},
		{"a noun after a modifier is no imperative", []turn{{"U", "okay so quick update on my end the budget review got pushed to friday"}}, []item{}},
		{"a task ends where the next thought starts", []turn{{"U", "i still need to send them the floor plan oh and can someone book a room"}},
			[]item{{"Send them the floor plan", ""}}},
		{"before that, closing the task", []turn{{"U", "The audit is on Thursday at 10."}, {"U", "I need to print the ledgers before that, okay?"}},
			[]item{{"Print the ledgers", "2026-03-12 10:00"}}},
		{"a reminder to myself of a fact, then a task", []turn{{"U", "reminder to myself the car insurance renews on the 15th so compare quotes before then"}},
			[]item{{"Compare quotes", "2026-03-14 23:59"}}},
		{"thank you is no break", []turn{{"U", "i'll draft a thank you post for the volunteers this weekend"}},
			[]item{{"Draft a thank you post for the volunteers", "2026-03-15 23:59"}}},
		{"it is the thing acted on, not the one acting", []turn{{"1", "the club called the match is on saturday and they need the medical form back by friday"}, {"U", "okay i'll sign it tonight"}},
			[]item{{"Sign the medical form", "2026-03-10 18:00"}}},
		{"a task asked of anyone, taken by the user", []turn{{"1", "who's going to write up the minutes"}, {"U", "i can do that"}},
			[]item{{"Write up the minutes", ""}}},
		{"a task asked of anyone, taken with a time", []turn{{"1", "can somebody restart the build server"}, {"U", "i'll look into it this afternoon"}},
			[]item{{"Restart the build server", "2026-03-10 14:00"}}},
		{"a task asked of anyone, the user only agreeing", []turn{{"1", "Someone should call the landlord about the heating."}, {"U", "Yes, definitely."}}, []item{}},
		{"a task asked of anyone, taken by another", []turn{{"1", "We need someone to order the banners."}, {"2", "I'll do it."}, {"U", "Great."}}, []item{}},
		{"the action item for you", []turn{{"1", "The action item for you is to renew the domain by Monday."}, {"U", "Got it."}},
			[]item{{"Renew the domain", "2026-03-16 23:59"}}},
		{"a name called, the user's unknown, two in the room", []turn{{"1", "Alex, can you send the contract?"}, {"U", "Yep."}},
			[]item{{"Send the contract", ""}}},
		{"a name called among three, taken up by the user", []turn{{"1", "Alex, can you handle the vendor renewal?"}, {"U", "Yep, I'll take that."}, {"2", "Thanks Alex."}},
			[]item{{"Handle the vendor renewal", ""}}},
		{"a name called among three, not the user's", []turn{{"1", "Sam, can you handle the vendor renewal?"}, {"2", "Sure."}, {"U", "Great."}}, []item{}},
		{"commitment with deadline", []turn{{"U", "I need to send the revised budget to finance by Friday."}},
			[]item{{"Send the revised budget to finance", "2026-03-13 23:59"}}},
		// The thing said first, the deed after.
		{"object first, punctuated", []turn{{"U", "Groceries I'll get tomorrow morning. The dry cleaning, I have to pick up by Saturday."}},
			[]item{{"Get groceries", "2026-03-11 09:00"}, {"Pick up the dry cleaning", "2026-03-14 23:59"}}},
		{"object first, run on", []turn{{"U", "okay the report i need to send to finance by thursday and the slides i'll finish tonight"}},
			[]item{{"Send the report to finance", "2026-03-12 23:59"}, {"Finish the slides", "2026-03-10 18:00"}}},
		{"object first, a pronoun for what was asked", []turn{{"1", "What about the invoices?"}, {"U", "Those I'll send out this week."}},
			[]item{{"Send out the invoices", "2026-03-13 23:59"}}},
		{"an object of its own stays", []turn{{"U", "The car, I'll wash the windows first."}},
			[]item{{"Wash the windows", ""}}},
		{"before a day is by the day before", []turn{{"U", "I have to sign the permission slip before Thursday."}},
			[]item{{"Sign the permission slip", "2026-03-11 23:59"}}},
		{"a reminder head, run on, its deadline in its sentence", []turn{{"U", "reminder renew the parking permit it's forty pounds due on the fifteenth"}, {"U", "and email the landlord about the boiler"}},
			[]item{{"Renew the parking permit", "2026-03-15 23:59"}, {"Email the landlord about the boiler", ""}}},
		// A visit for a thing said ready is fetching it.
		{"coming back for what comes in", []turn{{"1", "your glasses are done but the case is on order"}, {"U", "when will the case come in"}, {"1", "should be here on friday"}, {"U", "okay i'll come back friday after work"}},
			[]item{{"Pick up the case", "2026-03-13 18:00"}}},
		{"coming by for what is ready, its verb kept", []turn{{"1", "Your passport photos are ready, you can collect them any time after three."}, {"U", "Great, I'll swing by at five."}},
			[]item{{"Collect the passport photos", "2026-03-10 17:00"}}},
		{"a visit with nothing ready is no task", []turn{{"1", "We're open until eight tonight."}, {"U", "Great, I'll come by at five."}}, []item{}},
		// Before a plan of the conversation, named or counted back from it.
		{"before the plan named", []turn{{"U", "The housewarming is on Saturday the 21st at 7. I need to clean the carpets before the housewarming."}},
			[]item{{"Clean the carpets before the housewarming", "2026-03-20 23:59"}}},
		{"a week before the one plan", []turn{{"1", "The audit moved to the 25th at 10 am."}, {"U", "Fine. The inventory sheet I'll update a week before."}},
			[]item{{"Update the inventory sheet", "2026-03-18 23:59"}}},
		{"before a plan later today is by its start", []turn{{"U", "The client call is at four today. I'll print the contract before the call."}},
			[]item{{"Print the contract before the call", "2026-03-10 16:00"}}},
		{"a call asked for and promised at the same time is one", []turn{{"1", "can you call me back at two thirty"}, {"U", "sure i'll call you at two thirty"}},
			[]item{{"Call Speaker 1 back", "2026-03-10 14:30"}}},
		{"a reminder to self about a thing is no self task", []turn{{"U", "reminder to self the boiler needs a service before winter"}}, []item{}},
		{"starting or stopping a habit is no task", []turn{{"U", "i really should start going to bed earlier and stop buying coffee every morning"}}, []item{}},
		{"a day said first scopes the hour said after it", []turn{{"U", "okay so tomorrow i have to call the bank about the card and then pick up the kids at three fifteen"}},
			[]item{{"Call the bank about the card", "2026-03-11 23:59"}, {"Pick up the kids", "2026-03-11 15:15"}}},
		{"a day said of a plan scopes no later hour", []turn{{"U", "the dentist is on friday i'll call the garage at four"}},
			[]item{{"Call the garage", "2026-03-10 16:00"}}},
		{"a new statement about the thing, run on", []turn{{"U", "i need to renew my passport it expires in march"}},
			[]item{{"Renew my passport", ""}}},
		{"before a day's meeting", []turn{{"U", "Note to self: email Karen the slides before Friday's meeting."}},
			[]item{{"Email Karen the slides", "2026-03-12 23:59"}}},
		// A booking asked of the one who books it and confirmed in the call is done.
		{"a move asked for and confirmed", []turn{{"U", "Hi, I need to move my haircut from Saturday."}, {"1", "Sure, how about Monday at 11?"}, {"U", "Monday at 11 is fine."}, {"1", "Great, you're booked for Monday at 11."}},
			[]item{}},
		{"a booking not yet confirmed stays", []turn{{"U", "I need to book the car in for a service."}, {"1", "Okay, we can look at that tomorrow."}},
			[]item{{"Book the car in for a service", ""}}},
		{"a thing and then its doer, run on after a cue", []turn{{"U", "i'll print the tickets tonight the parking permit i'll buy at the gate tomorrow"}},
			[]item{{"Print the tickets", "2026-03-10 18:00"}, {"Buy the parking permit at the gate", "2026-03-11 23:59"}}},
		{"a deed offered with I can, then done to them", []turn{{"1", "i'm still waiting on the venue contract"}, {"U", "i can ask the agency for it i'll ping them right after standup"}},
			[]item{{"Ask the agency for the venue contract", "2026-03-10 12:00"}}},
		{"watching for something is no deed", []turn{{"1", "The courier will email you a tracking link."}, {"U", "Great, I'll look out for it and wait for the call."}}, []item{}},
		{"before that, said first", []turn{{"U", "The audit is on Friday. Before that I need to update the asset register."}},
			[]item{{"Update the asset register", "2026-03-12 23:59"}}},
		{"on a day said first scopes a later hour", []turn{{"U", "On Saturday I'm taking the kids swimming, then I'll drop the car at the garage at four."}},
			[]item{{"Drop the car at the garage", "2026-03-14 16:00"}}},
		{"over the weekend is a time", []turn{{"U", "okay i'll finish the draft over the weekend"}},
			[]item{{"Finish the draft", "2026-03-15 23:59"}}},
		{"before then, a day said before", []turn{{"1", "The quote goes out to the client on Friday."}, {"U", "Okay, I'll check the figures before then."}},
			[]item{{"Check the figures", "2026-03-12 23:59"}}},
		{"before then, a time said before", []turn{{"1", "The client call is Friday at 3 pm."}, {"U", "Okay, I'll check the figures before then."}},
			[]item{{"Check the figures", "2026-03-13 15:00"}}},
		{"now is as soon as possible", []turn{{"1", "Can we get the invite out?"}, {"U", "Yes, I'll send the invite now."}},
			[]item{{"Send the invite", "2026-03-10 12:00"}}},
		{"right after this call", []turn{{"U", "i'll restart the build server right after this call"}},
			[]item{{"Restart the build server", "2026-03-10 12:00"}}},
		{"now as a state is no due", []turn{{"U", "I'll send the invite, they're home now."}},
			[]item{{"Send the invite", ""}}},
		{"a deadline said just before a commitment", []turn{{"1", "We need the deck final by Thursday."}, {"U", "I'll own the budget slides."}},
			[]item{{"Own the budget slides", "2026-03-12 23:59"}}},
		{"brought to the one plan", []turn{{"1", "So the contract review is Thursday at four."}, {"1", "Can you bring the revised pricing?"}, {"U", "Sure."}},
			[]item{{"Bring the revised pricing", "2026-03-12 16:00"}}},
		{"the night before the plan", []turn{{"1", "Remember the swim meet is on Saturday at nine."}, {"U", "Right, I'll pack the lunches the night before."}},
			[]item{{"Pack the lunches", "2026-03-13 18:00"}}},
		{"a to-do list dated by its head", []turn{{"U", "things to do today pick up the parcel return the library books and fill up the car"}},
			[]item{{"Pick up the parcel", "2026-03-10 23:59"}, {"Return the library books", "2026-03-10 23:59"}, {"Fill up the car", "2026-03-10 23:59"}}},
		{"an obligation in the passive", []turn{{"U", "The water bill has to be paid by the end of the month."}},
			[]item{{"Pay the water bill", "2026-03-31 23:59"}}},
		{"a state in the passive is none", []turn{{"U", "The report has to be ready by Friday."}}, []item{}},
		{"one verb, two things, two times", []turn{{"U", "I'll call the plumber tomorrow and the electrician on Friday."}},
			[]item{{"Call the plumber", "2026-03-11 23:59"}, {"Call the electrician", "2026-03-13 23:59"}}},
		{"one verb, two things, one time", []turn{{"U", "i'll send the report and the slides by friday"}},
			[]item{{"Send the report and the slides", "2026-03-13 23:59"}}},
		{"a goal is no task", []turn{{"U", "i want to read more history this winter"}}, []item{}},
		{"can, with a time, commits", []turn{{"1", "The export feature is most of the carry-over."}, {"U", "I think I can finish it by Wednesday."}},
			[]item{{"Finish the export feature", "2026-03-11 23:59"}}},
		{"a trip is no task", []turn{{"U", "we can drive to evanston on saturday"}}, []item{}},
		{"what is ready, picked up", []turn{{"1", "Your new glasses will be ready to collect on Thursday after 3."}, {"U", "Great, I'll pick them up Thursday evening."}},
			[]item{{"Pick up the new glasses", "2026-03-12 18:00"}}},
		{"remind me with relative time", []turn{{"U", "Remind me in two hours to check on the bread dough."}},
			[]item{{"Check on the bread dough", "2026-03-10 12:00"}}},
		{"don't let me forget", []turn{{"U", "Don't let me forget to water the tomatoes tonight."}},
			[]item{{"Water the tomatoes", "2026-03-10 18:00"}}},
		{"request from the other speaker", []turn{
			{"1", "Can you send me the updated mockups by Thursday?"}, {"U", "Sure."}},
			[]item{{"Send Speaker 1 the updated mockups", "2026-03-12 23:59"}}},
		{"request to someone else by name", []turn{
			{"U", "Okay."}, {"1", "Nadia, can you pull the invoices from January?"}, {"2", "Sure."}}, []item{}},
		{"user's request to another", []turn{{"U", "Jorge, can you give me access to staging?"}, {"1", "Yep."}}, []item{}},
		{"others' commitments", []turn{{"U", "Great."}, {"1", "I'll send the invite and Tom will book the room."}}, []item{}},
		{"past tense", []turn{{"U", "I sent the forms yesterday and I already paid the bill."}}, []item{}},
		{"hypothetical", []turn{{"U", "If we had the budget I would hire both of them."}}, []item{}},
		{"question", []turn{{"U", "Do I need to include a cover letter?"}}, []item{}},
		{"reported advice", []turn{{"U", "My doctor said I should cut back on coffee."}}, []item{}},
		{"negated", []turn{{"U", "I will not call him again about the fence."}}, []item{}},
		{"stative", []turn{{"U", "I'll be there at noon and we'll see how it goes."}}, []item{}},
		{"vague answer lends its time", []turn{
			{"1", "Can you clear out the cabinet under the sink?"}, {"U", "Yep. I'll do that tonight."}},
			[]item{{"Clear out the cabinet under the sink", "2026-03-10 18:00"}}},
		{"one item per topic", []turn{
			{"1", "Could you send the mockups to the team?"}, {"U", "Yes, I'll send the mockups Thursday morning."}},
			[]item{{"Send the mockups to the team", "2026-03-12 09:00"}}},
		{"note to self takes the next clause", []turn{{"X", "Note to self, pick up oat milk, eggs and coffee filters on the way home."}},
			[]item{{"Pick up oat milk, eggs and coffee filters on the way home", ""}}},
		{"note to self records what happened", []turn{{"X", "note to self met the new neighbours today they seem nice"}}, []item{}},
		{"note to self records a past deed", []turn{{"X", "note to self phoned the garage about the brakes"}}, []item{}},
		{"note to self shreds", []turn{{"X", "note to self shred the old bank statements"}},
			[]item{{"Shred the old bank statements", ""}}},
		{"memo imperative", []turn{{"X", "Also return the library books, they're due Monday."}},
			[]item{{"Return the library books", "2026-03-16 23:59"}}},
		{"chained modal", []turn{{"U", "I'm gonna need to get the copy to legal by Thursday."}},
			[]item{{"Get the copy to legal", "2026-03-12 23:59"}}},
		{"wish without a time", []turn{{"U", "I want to travel more and learn to sail."}}, []item{}},
		{"wish with a time", []turn{{"U", "I want to finish the tax return by the end of the month."}},
			[]item{{"Finish the tax return", "2026-03-31 23:59"}}},
		{"you said you'd", []turn{
			{"1", "You said you'd clean out the garage."}, {"U", "I know. I'll do it tomorrow."}},
			[]item{{"Clean out the garage", "2026-03-11 23:59"}}},
		{"a piece of work had by a day is finished", []turn{{"1", "And the headcount plan?"}, {"U", "The headcount plan I'll have by Friday."}},
			[]item{{"Finish the headcount plan", "2026-03-13 23:59"}}},
		{"a request accepted with a time", []turn{{"1", "Can you look into hotels for the offsite?"}, {"U", "Sure, I'll get a few options by Friday."}},
			[]item{{"Look into hotels for the offsite", "2026-03-13 23:59"}}},
		{"a request and another task", []turn{{"1", "Can you send the report?"}, {"U", "Sure, and I'll book the room on Friday."}},
			[]item{{"Send the report", ""}, {"Book the room", "2026-03-13 23:59"}}},
		{"do that stands for the deed asked about", []turn{{"1", "Have you booked the train yet?"}, {"U", "Not yet, I need to do that this week."}},
			[]item{{"Book the train", "2026-03-13 23:59"}}},
		{"a deed asked about with no thing is none", []turn{{"1", "Have you eaten?"}, {"U", "Not yet, I need to do that."}},
			[]item{}},
		{"the user's own deed for an instruction", []turn{{"1", "Bring two payslips and photo ID."}, {"U", "Okay, I'll dig out the payslips on Saturday."}},
			[]item{{"Dig out the payslips", "2026-03-14 23:59"}}},
		{"a day is no pronoun's thing", []turn{{"1", "We can take it on Tuesday the 1st at 8."}, {"U", "Okay, I'll drop it off then."}},
			[]item{}},
		{"a pronoun object said with the way", []turn{{"1", "Your prescription is ready for pickup."}, {"U", "Great, I'll grab it on the way home."}},
			[]item{{"Grab the prescription on the way home", ""}}},
		{"a pronoun receiving the thing", []turn{{"1", "The figures are final."}, {"U", "Good, I'll send them the report on the way home."}},
			[]item{{"Send them the report on the way home", ""}}},
		{"out of something", []turn{{"1", "We're out of dishwasher tabs."}, {"U", "I'll grab some tomorrow."}},
			[]item{{"Grab dishwasher tabs", "2026-03-11 23:59"}}},
		{"the user's you", []turn{{"U", "I'll send you the contract tonight."}, {"1", "Thanks."}},
			[]item{{"Send Speaker 1 the contract", "2026-03-10 18:00"}}},
		{"by then", []turn{{"U", "The review is at eleven. I need to print the agenda before then."}},
			[]item{{"Print the agenda", "2026-03-10 11:00"}}},
		{"the greeted person's you", []turn{{"U", "Hi Maria. I'll send you the contract tonight."}, {"1", "Thanks."}},
			[]item{{"Send Maria the contract", "2026-03-10 18:00"}}},
		{"the greeted person's you, unpunctuated", []turn{{"U", "hey dana i'll send you the contract tonight"}, {"1", "thanks"}},
			[]item{{"Send Dana the contract", "2026-03-10 18:00"}}},
		{"a greeting names no one", []turn{{"U", "Hi everyone. I'll send you the contract tonight."}, {"1", "Thanks."}},
			[]item{{"Send Speaker 1 the contract", "2026-03-10 18:00"}}},
		{"please remind me", []turn{{"U", "I will send you the report by Friday afternoon. Please remind me to book the flights."}, {"1", "Will do."}},
			[]item{{"Send Speaker 1 the report", "2026-03-13 14:00"}, {"Book the flights", ""}}},
		{"please remind me, unpunctuated", []turn{{"U", "i will send you the report by friday afternoon please remind me to book the flights"}, {"1", "will do"}},
			[]item{{"Send Speaker 1 the report", "2026-03-13 14:00"}, {"Book the flights", ""}}},
		{"asked to remind me", []turn{{"U", "Can you remind me to call Grandma on Sunday?"}, {"1", "Sure."}},
			[]item{{"Call Grandma", "2026-03-15 23:59"}}},
		{"a promise", []turn{{"U", "i promised to bake a cake for the party on saturday"}},
			[]item{{"Bake a cake for the party", "2026-03-14 23:59"}}},
		{"at school is a place", []turn{{"U", "I'll drop the kids at school at eight fifteen tomorrow."}},
			[]item{{"Drop the kids at school", "2026-03-11 08:15"}}},
		{"and remind me", []turn{{"U", "so i need to renew my passport before the trip and remind me to call mom tomorrow"}},
			[]item{{"Renew my passport before the trip", ""}, {"Call mom", "2026-03-11 23:59"}}},
		{"a run of commands, unpunctuated", []turn{{"U", "jobs for the weekend paint the fence trim the hedge and wash the car"}},
			[]item{{"Paint the fence", ""}, {"Trim the hedge", ""}, {"Wash the car", ""}}},
		{"a run of commands, punctuated", []turn{{"U", "Before the move: cancel the gym by Friday, forward the post, and give the landlord the keys."}},
			[]item{{"Cancel the gym", "2026-03-13 23:59"}, {"Forward the post", ""}, {"Give the landlord the keys", ""}}},
		{"a pronoun's thing named before", []turn{{"1", "The framed prints will be ready by Thursday."}, {"1", "Can you collect them?"}, {"U", "Sure, I'll pick them up on Thursday."}},
			[]item{{"Collect the framed prints", "2026-03-12 23:59"}}},
		{"a pronoun after trailing words", []turn{{"1", "I'd recommend the pottery course in April."}, {"U", "Sounds good, I'll sign up for it."}},
			[]item{{"Sign up for the pottery course", ""}}},
		{"the answer restates the request", []turn{{"1", "can you get the twins today i'm stuck at work"}, {"U", "sure what time"}, {"1", "half five at the pool"}, {"U", "okay i'll pick them up at half five"}},
			[]item{{"Pick up the twins", "2026-03-10 17:30"}}},
		{"more of the things named", []turn{{"1", "Have you asked any local bakeries?"}, {"U", "Two so far. I'll email three more."}},
			[]item{{"Email three more local bakeries", ""}}},
		{"a deadline said after the commitment", []turn{{"U", "I'll draft the press release."}, {"1", "Great. Drafts due on Thursday, please."}},
			[]item{{"Draft the press release", "2026-03-12 23:59"}}},
		{"meeting up is no task", []turn{{"U", "We should grab lunch when you're back in town."}, {"1", "Definitely."}}, []item{}},
		{"buying the coffee is one", []turn{{"U", "I need to buy coffee beans tomorrow."}},
			[]item{{"Buy coffee beans", "2026-03-11 23:59"}}},
		{"due the day before the plan", []turn{{"1", "Reading group again next Thursday at 7 pm then."}, {"U", "Great, I'll send the reading list the day before."}},
			[]item{{"Send the reading list", "2026-03-18 23:59"}}},
		{"due before meeting again", []turn{{"U", "I'll draft the budget before we meet again."}, {"1", "Let's meet again on Monday at 10."}},
			[]item{{"Draft the budget", "2026-03-16 10:00"}}},
		{"a pick-up when they land", []turn{{"1", "My brother lands on Thursday at 9:20 in the evening."}, {"U", "I'll pick him up from the station."}},
			[]item{{"Pick him up from the station", "2026-03-12 21:20"}}},
		{"the answer names the request's thing more briefly", []turn{{"1", "so can you take the kids easter weekend"}, {"U", "yes i'll pick them up wednesday after school"}},
			[]item{{"Pick up the kids", "2026-03-11 14:00"}}},
		{"an offer taken is no task", []turn{{"1", "The next free table is at eight."}, {"U", "I'll take it."}}, []item{}},
		{"a habit advised is no task", []turn{{"1", "Ice the ankle every evening and rest it."}, {"U", "Okay."}}, []item{}},
		{"a habit, every other day", []turn{{"U", "I should water the ferns every other day."}}, []item{}},
		{"being somewhere is no task", []turn{{"1", "Can you join the call with their lawyer?"}, {"U", "Yes, and I'll come and see you after."}}, []item{}},
		{"a visit with a task as its purpose", []turn{{"1", "Your dry cleaning is ready."}, {"U", "Thanks, I'll stop by tomorrow to pick up the suit."}},
			[]item{{"Pick up the suit", "2026-03-11 23:59"}}},
		{"a shopping list read out", []turn{{"U", "Shopping list: oat milk, bread, two lemons, and batteries for the smoke alarm."}},
			[]item{{"Buy oat milk, bread, two lemons, and batteries for the smoke alarm", ""}}},
		{"a list of calls said without pauses", []turn{{"U", "calls today the vet about the shots the accountant about the estimate and aunt rosa"}},
			[]item{{"Call the vet about the shots", "2026-03-10 23:59"}, {"Call the accountant about the estimate", "2026-03-10 23:59"},
				{"Call aunt rosa", "2026-03-10 23:59"}}},
		{"calls talked about are no list", []turn{{"U", "Calls are expensive from abroad."}}, []item{}},
		{"one command with two objects", []turn{{"U", "I'll clean the kitchen and the bathroom tomorrow."}},
			[]item{{"Clean the kitchen and the bathroom", "2026-03-11 23:59"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := items(structure(t, dialogueInput(tue, tt.turns...)), ny)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("action items (-want +got):\n%s", d)
			}
		})
	}
}

func TestBuiltinActionItemsCapAndUTC(t *testing.T) {
	t.Parallel()
	tokyo := mustZone(t, "Asia/Tokyo")
	start := time.Date(2026, 5, 1, 9, 0, 0, 0, tokyo)
	var turns []turn
	for _, task := range []string{"call the bank", "email Klaus about the invoice", "book the hotel", "renew my passport",
		"buy a birthday present for Mia", "pay the water bill", "fix the kitchen shelf"} {
		turns = append(turns, turn{"U", "I need to " + task + " tomorrow."})
	}
	s := structure(t, dialogueInput(start, turns...))
	if len(s.ActionItems) != maxActionItems {
		t.Fatalf("%d action items, want the cap %d: %+v", len(s.ActionItems), maxActionItems, s.ActionItems)
	}
	for _, it := range s.ActionItems {
		if it.DueAt == nil || it.DueAt.Location() != time.UTC {
			t.Fatalf("%q: due %v, want a UTC time", it.Description, it.DueAt)
		}
		if got := it.DueAt.In(tokyo).Format("2006-01-02 15:04"); got != "2026-05-02 23:59" {
			t.Errorf("%q due %s local, want 2026-05-02 23:59", it.Description, got)
		}
	}
}

func TestBuiltinActionItemsWithoutStart(t *testing.T) {
	t.Parallel()
	s := structure(t, dialogueInput(time.Time{}, turn{"U", "I need to call the dentist tomorrow morning."}))
	want := []appliance.ActionItem{{Description: "Call the dentist"}}
	if d := cmp.Diff(want, s.ActionItems); d != "" {
		t.Errorf("without a start: (-want +got):\n%s", d)
	}
	if len(s.Events) != 0 {
		t.Errorf("events %+v, want none without a start", s.Events)
	}
}

func TestBuiltinActionItemsPastDueCleared(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)
	s := structure(t, dialogueInput(start, turn{"U", "You said you'd clean the garage two weeks ago, I know."},
		turn{"1", "You said you'd fix the gate two weeks ago."}))
	for _, it := range s.ActionItems {
		if it.DueAt != nil {
			t.Errorf("%q: due %v, want cleared (more than a day in the past)", it.Description, it.DueAt)
		}
	}
}

func TestBuiltinActionItemsNonEnglish(t *testing.T) {
	t.Parallel()
	in := dialogueInput(time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC), turn{"U", "Tengo que llamar al fontanero mañana por la mañana."})
	in.Language = "es"
	s := structure(t, in)
	if len(s.ActionItems) != 0 || len(s.Events) != 0 || s.Title == "" {
		t.Errorf("spanish: %+v, want a title and no items or events", s)
	}
}

// TestIssueBudgetCallDueIsNeverPast is the live transcript the issue
// reported (a Wednesday morning call): the unpunctuated commitment is due
// Friday afternoon like its punctuated twin, not the same day at 09:00 from
// the greeting's "this morning", and the next request stays out of it.
func TestIssueBudgetCallDueIsNeverPast(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	wed := time.Date(2026, 11, 25, 10, 0, 0, 0, ny)
	for _, text := range []string{
		"hi maria thanks for joining the call this morning i will send you the budget report by friday afternoon please remind the team about the offsite",
		"Hi Maria, thanks for joining the call this morning. I will send you the budget report by Friday afternoon. Please remind the team about the offsite.",
	} {
		s := structure(t, dialogueInput(wed, turn{"U", text}, turn{"1", "sure thing"}))
		want := []item{{"Send Maria the budget report", "2026-11-27 14:00"}}
		if d := cmp.Diff(want, items(s, ny)); d != "" {
			t.Errorf("%q: action items (-want +got):\n%s", text, d)
		}
		for _, it := range s.ActionItems {
			if it.DueAt != nil && it.DueAt.Before(wed) {
				t.Errorf("%q: %q due %v, before the conversation", text, it.Description, it.DueAt)
			}
		}
		if len(s.Events) != 0 {
			t.Errorf("%q: events %+v, want none (the call is under way)", text, s.Events)
		}
	}
}

// TestActionItemsSkipTheUsersOpenItems: a task the user already has open is
// not added again, however it is worded; other tasks are.
func TestActionItemsSkipTheUsersOpenItems(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	tue := time.Date(2026, 3, 10, 10, 0, 0, 0, ny)
	in := dialogueInput(tue, turn{"U", "I still need to renew my passport before the trip. I'll also book the hotel in Lisbon by Friday."})
	if got := items(structure(t, in), ny); len(got) != 2 {
		t.Fatalf("without open items: %+v, want the passport and the hotel", got)
	}
	in.OpenActionItems = func() []string { return []string{"Renew the passport", "Call the plumber about the leak"} }
	want := []item{{"Book the hotel in Lisbon", "2026-03-13 23:59"}}
	if d := cmp.Diff(want, items(structure(t, in), ny)); d != "" {
		t.Errorf("with open items (-want +got):\n%s", d)
	}
}
