package builtin

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/hearth-appliance/hearth/appliance"
)

// plan is an event in local wall time, for readable expectations.
type plan struct {
	Title    string
	Start    string // "2006-01-02 15:04" local
	Duration int
}

func plans(s appliance.Structured, loc *time.Location) []plan {
	out := []plan{}
	for _, e := range s.Events {
		out = append(out, plan{e.Title, e.Start.In(loc).Format("2006-01-02 15:04"), e.Duration})
	}
	return out
}

func TestBuiltinEvents(t *testing.T) {
	t.Parallel()
	berlin := mustZone(t, "Europe/Berlin")
	thu := time.Date(2026, 3, 26, 13, 0, 0, 0, berlin) // Thursday before the DST switch
	tests := []struct {
		name  string
		turns []turn
		want  []plan
	}{
		{"meet on Tuesday at 3 pm", []turn{{"U", "Let's meet on Tuesday at 3 pm to go over the numbers."}},
			[]plan{{"Meeting", "2026-03-31 15:00", 30}}},
		{"a child's appointment the user takes him to", []turn{{"1", "And Ben has his dentist on the second at nine."}, {"U", "Okay, I'll take him."}},
			[]plan{{"Ben's Dentist Appointment", "2026-04-02 09:00", 30}}},
		{"someone else's appointment is theirs", []turn{{"1", "Ben has his dentist on the second at nine."}, {"U", "Oh, poor thing."}},
			[]plan{}},
		{"named event with duration", []turn{{"U", "Our board meeting is next Thursday at 3 for two hours."}},
			[]plan{{"Board Meeting", "2026-04-02 15:00", 120}}},
		{"duration capped", []turn{{"U", "The workshop is on Saturday at 9 am for five hours."}},
			[]plan{{"Workshop", "2026-03-28 09:00", 180}}},
		{"range gives duration", []turn{{"1", "Did the plumber call?"}, {"U", "Yeah, he's coming Monday between 8 and 10."}},
			[]plan{{"Plumber Visit", "2026-03-30 08:00", 120}}},
		{"with a name", []turn{{"U", "I have lunch with Priya tomorrow at 12:30."}},
			[]plan{{"Lunch with Priya", "2026-03-27 12:30", 30}}},
		{"meal default hour", []turn{{"U", "Grandma's birthday dinner is on Sunday."}},
			[]plan{{"Grandma's Birthday Dinner", "2026-03-29 18:00", 30}}},
		{"agreed proposal", []turn{{"1", "Want to get coffee on Friday at 10?"}, {"U", "Sure, sounds good."}},
			[]plan{{"Coffee", "2026-03-27 10:00", 30}}},
		{"refused proposal", []turn{{"1", "Want to get coffee on Friday at 10?"}, {"U", "No, I can't, sorry."}}, []plan{}},
		{"past", []turn{{"U", "We met with the auditors on Tuesday at 3."}}, []plan{}},
		{"someone else's", []turn{{"1", "Did you hear Jake is flying to Denver on Friday at 6 for the interview?"}, {"U", "No way."}}, []plan{}},
		{"no time of day", []turn{{"U", "The meeting is on Monday."}}, []plan{}},
		{"an hour given as the answer", []turn{{"1", "Are we still on for breakfast tomorrow?"}, {"U", "Yes, nine at the usual place."}},
			[]plan{{"Breakfast", "2026-03-27 09:00", 30}}},
		{"a count is no hour", []turn{{"1", "Are we still on for breakfast tomorrow?"}, {"U", "Yes, two people."}},
			[]plan{{"Breakfast", "2026-03-27 08:00", 30}}},
		{"the next of a series, of the evening", []turn{{"1", "So are we doing the pub quiz again?"}, {"U", "Yes, it's every second Tuesday, so the next one is the 2nd at eight."}},
			[]plan{{"Pub Quiz", "2026-04-02 20:00", 30}}},
		{"a day-long thing dated by the answer", []turn{{"1", "Are you going to the tech conference in Berlin?"}, {"U", "Yes, it's the 14th and 15th of April."}},
			[]plan{{"Tech Conference", "2026-04-14 09:00", 30}}},
		{"a dinner dated by the answer has no hour", []turn{{"1", "Are you coming to the team dinner?"}, {"U", "Yes, it's on the 14th of April."}},
			[]plan{}},
		{"a day part gives way to the hour asked for", []turn{{"U", "hi chloe are you free saturday night to babysit"}, {"1", "yes what time"}, {"U", "from six thirty until about eleven"}, {"1", "perfect see you then"}},
			[]plan{{"Chloe", "2026-03-28 18:30", 30}}},
		{"the date names which weekday", []turn{{"U", "We're doing the party on Saturday, right?"}, {"1", "Yes, on the 4th at one."}},
			[]plan{{"Party", "2026-04-04 13:00", 30}}},
		{"physiotherapy starts", []turn{{"1", "We'll start the physiotherapy on Monday at 5:30 pm, twice a week."}, {"U", "Okay."}},
			[]plan{{"Physiotherapy", "2026-03-30 17:30", 30}}},
		{"a weekly habit in the past", []turn{{"U", "I used to have piano lessons on Tuesdays at 4."}}, []plan{}},
		{"a plan the user passes on", []turn{{"1", "The team is going for drinks Friday at 6."}, {"U", "I'll pass this time."}}, []plan{}},
		{"fireworks are of the evening", []turn{{"1", "the fireworks are at nine on saturday"}, {"U", "we can watch from the roof"}},
			[]plan{{"Fireworks", "2026-03-28 21:00", 30}}},
		{"news coming out is no visit", []turn{{"1", "the election results come out tonight at nine"}, {"U", "can't wait"}}, []plan{}},
		{"a plan the user sends greetings to", []turn{{"1", "i'm meeting sarah for lunch tomorrow at one"}, {"U", "say hi from me"}}, []plan{}},
		{"what happens as a rule", []turn{{"1", "Usually the bus comes at 7:45."}, {"U", "Right."}}, []plan{}},
		{"a plan the user will miss", []turn{{"1", "the kids school play is thursday at six"}, {"U", "i know i can't make it i have to work"}}, []plan{}},
		{"the teller's own plan", []turn{{"1", "i'm going to the gym at six tomorrow"}, {"U", "nice"}}, []plan{}},
		{"the teller's own meeting", []turn{{"1", "I have a meeting at 3 so I'll be late."}, {"U", "No problem."}}, []plan{}},
		{"the teller's plan with the user", []turn{{"1", "I'm going to the cinema at 8 tomorrow, want to come?"}, {"U", "Sure, sounds good."}},
			[]plan{{"Cinema", "2026-03-27 20:00", 30}}},
		{"a day said again keeps its month", []turn{{"U", "We are in Lyon on the 1st and 2nd of May."}, {"U", "The workshop is on the 2nd at 2 pm."}},
			[]plan{{"Workshop", "2026-05-02 14:00", 30}}},
		{"a day not said before is its next occurrence", []turn{{"U", "We are in Lyon on the 1st and 2nd of May."}, {"U", "The workshop is on the 3rd at 2 pm."}},
			[]plan{{"Workshop", "2026-04-03 14:00", 30}}},
		{"a task, not a plan", []turn{{"U", "I have to call the dentist tomorrow morning about my appointment."}}, []plan{}},
		{"evening event", []turn{{"U", "We're having the Hendersons over tomorrow at 7."}},
			[]plan{{"Hendersons Over", "2026-03-27 19:00", 30}}},
		// A dated plan that involves the user is both an action item (to
		// arrange it) and an event at its time.
		{"booking a dinner", []turn{{"U", "We need to book a table for her birthday dinner on April 14th at 7 pm."}},
			[]plan{{"Birthday Dinner", "2026-04-14 19:00", 30}}},
		{"scheduling a call", []turn{{"U", "We should schedule a call with their counsel next Tuesday at 2 pm."}},
			[]plan{{"Call with Counsel", "2026-03-31 14:00", 30}}},
		{"arranging a visit", []turn{{"1", "The boiler is making that noise again."}, {"U", "I'll set up an appointment with the technician for Monday at 9."}},
			[]plan{{"Appointment with Technician", "2026-03-30 09:00", 30}}},
		{"their plan, not ours", []turn{{"U", "They need to book a table for their anniversary dinner on Friday at 8 pm."}}, []plan{}},
		// Booked plans someone else carries out for the user.
		{"a service they do", []turn{{"U", "The garage called about the car. They can do the brake service on Monday March 30th at 8 am."}},
			[]plan{{"Brake Service", "2026-03-30 08:00", 30}}},
		{"someone sent", []turn{{"U", "I called the landlord. He is sending a repairman on Tuesday March 31st at 2 pm."}},
			[]plan{{"Repairman Visit", "2026-03-31 14:00", 30}}},
		{"sent, spelled out", []turn{{"U", "he is sending an electrician on tuesday the thirty first at two in the afternoon"}},
			[]plan{{"Electrician Visit", "2026-03-31 14:00", 30}}},
		{"a name after a preposition is no subject", []turn{{"U", "Dinner with the Parkers is on Saturday at seven."}},
			[]plan{{"Dinner with Parkers", "2026-03-28 19:00", 30}}},
		{"a name after a preposition, said alone", []turn{{"U", "Lunch with Sam is on Friday at 1."}},
			[]plan{{"Lunch with Sam", "2026-03-27 13:00", 30}}},
		{"a plan's noun with 's before its day", []turn{{"U", "the party's on saturday at seven"}},
			[]plan{{"Party", "2026-03-28 19:00", 30}}},
		{"a plan to be reminded of", []turn{{"U", "remind me the parents evening is thursday at six"}},
			[]plan{{"Parents Evening", "2026-04-02 18:00", 30}}},
		{"a meeting the user is asked to make", []turn{{"1", "Can you make a 9 am standup tomorrow?"}, {"U", "Yes."}},
			[]plan{{"Standup", "2026-03-27 09:00", 30}}},
		{"a weekday said again is the date it was said with", []turn{{"1", "We have Thursday the 9th at 11:20 or Friday at 2."}, {"U", "Thursday works."},
			{"1", "Great, you're booked for Thursday at 11:20."}},
			[]plan{{"Appointment", "2026-04-09 11:20", 30}}},
		{"the clock said after same time", []turn{{"U", "my physio appointment got moved to monday same time which is 8 30"}},
			[]plan{{"Physio Appointment", "2026-03-30 08:30", 30}}},
		{"a proposal's hour said with say", []turn{{"1", "we're thinking dinner at ours on friday, say half seven?"}, {"U", "lovely, we'll bring dessert"}},
			[]plan{{"Dinner", "2026-03-27 19:30", 30}}},
		{"a plan at someone's home is of the evening", []turn{{"U", "Game night is at Tom's place on Friday at eight."}},
			[]plan{{"Game Night", "2026-03-27 20:00", 30}}},
		{"meeting at a friend's", []turn{{"U", "We're meeting at Anna's on Thursday at 7."}},
			[]plan{{"Meeting", "2026-04-02 19:00", 30}}},
		{"a tradesperson at home keeps the morning", []turn{{"U", "The electrician will be at my place on Monday at 9."}},
			[]plan{{"Electrician Visit", "2026-03-30 09:00", 30}}},
		{"a noun that is also a verb, before is", []turn{{"U", "book club is at my place on thursday the 2nd at seven thirty"}},
			[]plan{{"Book Club", "2026-04-02 19:30", 30}}},
		{"a plan booked in for, named after for", []turn{{"1", "I've booked you in for a blood test on Monday at 8:40."}, {"U", "Thank you."}},
			[]plan{{"Blood Test", "2026-03-30 08:40", 30}}},
		{"a thing delivered with its adjective", []turn{{"U", "they're delivering the new fridge next tuesday in the morning"}},
			[]plan{{"Fridge Delivery", "2026-03-31 09:00", 30}}},
		{"a plan the user cannot make", []turn{{"U", "I can't make the meeting on Friday at 3."}}, []plan{}},
		{"a plan we will not be able to come to", []turn{{"U", "we won't be able to come to the party on saturday at eight"}}, []plan{}},
		{"a plan the user cannot wait for", []turn{{"U", "I can't wait for the concert on Saturday at 8 pm."}},
			[]plan{{"Concert", "2026-03-28 20:00", 30}}},
		{"a report sent is no visit", []turn{{"U", "He is sending the report on Monday at 2 pm."}}, []plan{}},
		{"booked, spoken minutes", []turn{{"U", "The vet appointment is sorted."}, {"U", "We booked it for Friday March 27th at 9 30 in the morning."}},
			[]plan{{"Vet Appointment", "2026-03-27 09:30", 30}}},
		{"a delivery", []turn{{"U", "The new sofa is being delivered on Monday from 2 to 4."}},
			[]plan{{"Sofa Delivery", "2026-03-30 14:00", 120}}},
		{"a duration in words", []turn{{"U", "The boiler inspection is on Wednesday at ten for two hours."}},
			[]plan{{"Boiler Inspection", "2026-04-01 10:00", 120}}},
		{"a parcel arriving", []turn{{"U", "The package should arrive on Monday between 9 and 12."}},
			[]plan{{"Package Delivery", "2026-03-30 09:00", 180}}},
		{"someone will be here", []turn{{"U", "The electrician will be here Monday at 10."}},
			[]plan{{"Electrician Visit", "2026-03-30 10:00", 30}}},
		{"the user arriving is no visit", []turn{{"U", "We arrive on Monday at 10 and I'll be here till Friday."}}, []plan{}},
		{"a professional sees the user", []turn{{"U", "The doctor can see me next Tuesday at 10 15."}},
			[]plan{{"Doctor Appointment", "2026-03-31 10:15", 30}}},
		{"a table booked", []turn{{"U", "i booked a table at luigi's for saturday at seven thirty"}},
			[]plan{{"Table at Luigi's", "2026-03-28 19:30", 30}}},
		{"movers booked", []turn{{"U", "the movers are booked for april 2nd from 8 to 11"}},
			[]plan{{"Movers Visit", "2026-04-02 08:00", 180}}},
		{"they deliver", []turn{{"U", "They'll deliver the fridge on Monday in the afternoon."}},
			[]plan{{"Fridge Delivery", "2026-03-30 14:00", 30}}},
		{"a school play", []turn{{"U", "The school play is next Thursday at six thirty in the evening."}},
			[]plan{{"School Play", "2026-04-02 18:30", 30}}},
		{"spoken numbers", []turn{{"U", "they can do the brake service on monday march thirtieth at eight in the morning"}},
			[]plan{{"Brake Service", "2026-03-30 08:00", 30}}},
		{"a spoken range", []turn{{"U", "our meeting with the architect is next wednesday from two to four"}},
			[]plan{{"Meeting with Architect", "2026-04-01 14:00", 120}}},
		{"thanks for a plan", []turn{{"U", "Thanks for booking the dinner for Saturday at 8."}},
			[]plan{{"Dinner", "2026-03-28 20:00", 30}}},
		{"the call under way", []turn{{"U", "Hi Maria, thanks for joining the call this afternoon."}}, []plan{}},
		// Booked by others, confirmed by a question, named in another clause.
		{"got you in with a professional", []turn{{"1", "We got you in with Dr Lee on the 31st at 11:45."}, {"U", "Perfect."}},
			[]plan{{"Appointment with Dr Lee", "2026-03-31 11:45", 30}}},
		{"a meeting the user is asked to do", []turn{{"1", "Can you do the parent-teacher conference on Tuesday at 4:10?"}, {"U", "Yes, I can do that."}},
			[]plan{{"Parent-teacher Conference", "2026-03-31 16:10", 30}}},
		{"an evening named by what it is", []turn{{"U", "parents evening is on the second at six fifteen"}},
			[]plan{{"Parents Evening", "2026-04-02 18:15", 30}}},
		{"two dated things in one sentence", []turn{{"U", "next week the dentist is tuesday at nine and the school play is thursday at six"}},
			[]plan{{"Dentist Appointment", "2026-03-31 09:00", 30}, {"School Play", "2026-04-02 18:00", 30}}},
		{"same time, answered with a day", []turn{{"1", "so same time next week"}, {"U", "yes wednesday at five works"}},
			[]plan{{"Appointment", "2026-04-01 17:00", 30}}},
		// Date-only plans start at the morning hour on their day.
		{"a day-long thing", []turn{{"1", "The offsite is confirmed for the first and second of April."}, {"U", "Great, two full days."}},
			[]plan{{"Offsite", "2026-04-01 09:00", 30}}},
		{"said to take all day", []turn{{"U", "the christmas market is on saturday the twenty eighth all day"}},
			[]plan{{"Christmas Market", "2026-03-28 09:00", 30}}},
		{"arranged for a day", []turn{{"1", "They've arranged the office party for Saturday the 28th."}, {"U", "Okay."}},
			[]plan{{"Office Party", "2026-03-28 09:00", 30}}},
		{"a delivery on a day", []turn{{"1", "Your sofa will be delivered on Monday the 30th, we can't say when."}, {"U", "So I need to be in all day."}},
			[]plan{{"Sofa Delivery", "2026-03-30 09:00", 30}}},
		{"a one on one moved", []turn{{"1", "can we move our one on one to tuesday at three"}, {"U", "sure tuesday at three works"}},
			[]plan{{"One-on-one", "2026-03-31 15:00", 30}}},
		{"a meeting proposed, accepted with can do", []turn{{"1", "Ms Park would like to meet with you on Monday at 8:15 about Leo's grades."}, {"U", "I can do that."}},
			[]plan{{"Meeting", "2026-03-30 08:15", 30}}},
		{"a time settled after the day", []turn{{"1", "How about lunch on Friday?"}, {"U", "Friday works, say 12:30?"}, {"1", "Perfect."}},
			[]plan{{"Lunch", "2026-03-27 12:30", 30}}},
		{"booked for an hour tonight", []turn{{"1", "Your table for two is booked for 8 tonight."}, {"U", "Thank you."}},
			[]plan{{"Table Reservation", "2026-03-26 20:00", 30}}},
		{"a slot named by what it is for", []turn{{"1", "we can fit you in next wednesday at quarter past four for the filling"}, {"U", "that's fine"}},
			[]plan{{"Filling", "2026-04-01 16:15", 30}}},
		{"asked when, answered with an hour", []turn{{"1", "what time is the christening on sunday"}, {"U", "eleven o'clock at st mark's"}},
			[]plan{{"Christening", "2026-03-29 11:00", 30}}},
		{"seeing a professional", []turn{{"U", "i'm seeing the accountant on friday at eleven about the tax return"}},
			[]plan{{"Accountant Appointment", "2026-03-27 11:00", 30}}},
		{"a plan's name contracted with is", []turn{{"U", "flight's at nine fifty on the ninth so we need to leave by seven"}},
			[]plan{{"Flight", "2026-04-09 09:50", 30}}},
		{"the next one", []turn{{"1", "So your next one is Tuesday April 14th at 9."}, {"U", "Great, thanks."}},
			[]plan{{"Appointment", "2026-04-14 09:00", 30}}},
		{"an offered slot chosen", []turn{{"1", "I have Monday at 11:15 or Tuesday at 2."}, {"U", "Monday at 11:15, please."}, {"1", "Done."}},
			[]plan{{"Appointment", "2026-03-30 11:15", 30}}},
		{"booked for a spoken day", []turn{{"U", "ok so the kids' dentist is booked for the thirtieth at four"}},
			[]plan{{"Kids Dentist", "2026-03-30 16:00", 30}}},
		{"see you on a day", []turn{{"1", "See you Monday at 4 then."}, {"U", "See you then."}},
			[]plan{{"Appointment", "2026-03-30 16:00", 30}}},
		{"an outing somewhere", []turn{{"U", "We're going to the theatre on Friday at 7:30."}},
			[]plan{{"Theatre", "2026-03-27 19:30", 30}}},
		{"a train leaving", []turn{{"U", "my train leaves at six fifteen tomorrow morning"}},
			[]plan{{"Train", "2026-03-27 06:15", 30}}},
		{"an evening named by what it is, no copula", []turn{{"1", "don't forget parents evening thursday at six"}, {"U", "got it"}},
			[]plan{{"Parents Evening", "2026-04-02 18:00", 30}}},
		{"a holiday by name, arriving by an hour", []turn{{"1", "so are we doing thanksgiving at your mom's this year"}, {"U", "yes she wants everyone there by two"}},
			[]plan{{"Thanksgiving", "2026-11-26 14:00", 30}}},
		{"what a provider does for the user", []turn{{"1", "I've found a flight on the 4th of April leaving at 7:10 in the morning."}, {"U", "Great."}},
			[]plan{{"Flight", "2026-04-04 07:10", 30}}},
		{"opening hours", []turn{{"U", "the store opens at nine tomorrow"}}, []plan{}},
		{"a meeting under way until an hour", []turn{{"U", "I'm in a meeting until three."}}, []plan{}},
		{"a visit for a meal", []turn{{"U", "my mom is coming over for dinner on sunday"}},
			[]plan{{"Mom Visit", "2026-03-29 18:00", 30}}},
		{"confirmed, nothing more said", []turn{{"1", "so that's confirmed for the thirtieth at eleven"}, {"U", "brilliant thanks"}},
			[]plan{{"Appointment", "2026-03-30 11:00", 30}}},
		{"making it to a rehearsal", []turn{{"1", "can you make it to the rehearsal on saturday at ten"}, {"U", "yes i can"}},
			[]plan{{"Rehearsal", "2026-03-28 10:00", 30}}},
		{"a clock after its day without at", []turn{{"1", "the team dinner is next thursday seven thirty at nando's"}, {"U", "count me in"}},
			[]plan{{"Team Dinner", "2026-04-02 19:30", 30}}},
		{"news relayed with did you hear", []turn{{"U", "did you hear the office is closed on monday the thirtieth for the holiday"}},
			[]plan{{"Closed", "2026-03-30 09:00", 30}}},
		{"when to book is no plan", []turn{{"U", "i'll book the restaurant this afternoon"}}, []plan{}},
		{"something on tv", []turn{{"1", "the match is on tv at eight tonight"}, {"U", "cool"}}, []plan{}},
		{"someone else's plan, wished well", []turn{{"1", "I'm off to a wedding on Saturday at 2, so I won't reply."}, {"U", "Have fun!"}}, []plan{}},
		{"someone else's flight, wished well", []turn{{"1", "My flight got moved to 9 pm tonight."}, {"U", "Oh no, safe travels."}}, []plan{}},
		{"a dated day-long thing in the past", []turn{{"U", "The conference was on the 20th."}}, []plan{}},
		{"the call under way, unpunctuated", []turn{{"U", "hi maria thanks for joining the call this afternoon i will send you the budget report by friday afternoon"}}, []plan{}},
		// A slot given up is no time of the plan; a plan called off is none.
		{"the new slot, not the one instead of it", []turn{{"1", "we can fit your massage in on monday at four instead of saturday"}, {"U", "monday at four suits me"}},
			[]plan{{"Massage", "2026-03-30 16:00", 30}}},
		{"a bare old hour after instead of", []turn{{"U", "The quiz night starts at 8 instead of 7 now."}},
			[]plan{{"Quiz", "2026-03-26 20:00", 30}}},
		{"moved from one day to another", []turn{{"U", "The team lunch moved from Tuesday to Wednesday at 12:30."}},
			[]plan{{"Team Lunch", "2026-04-01 12:30", 30}}},
		{"pushed, and a slot someone cannot make, run on", []turn{{"U", "the review with acme got pushed to tuesday at nine fifteen their lawyer can't make monday"}},
			[]plan{{"Review", "2026-03-31 09:15", 30}}},
		{"a plan that is off", []turn{{"U", "The barbecue on Saturday at 2 is off, the forecast is awful."}}, []plan{}},
		{"a plan called off for the user", []turn{{"1", "I'm sorry, we have to cancel your haircut on Friday at 10."}, {"U", "Oh, okay."}}, []plan{}},
		{"a medical scan", []turn{{"U", "My MRI was fine, and the follow-up ultrasound scan is on Monday the 30th at 8:15."}},
			[]plan{{"Follow-up Ultrasound", "2026-03-30 08:15", 30}}},
		{"a jab booked on the phone", []turn{{"U", "hi i'd like to book a covid booster"}, {"1", "we have friday the twenty seventh at ten past three"}, {"U", "ten past three is good"}},
			[]plan{{"Covid Booster", "2026-03-27 15:10", 30}}},
		{"hours said after a day are on it", []turn{{"1", "The auditors are in on Tuesday: one session at 9 and one at 3. Can you take both?"}, {"U", "I can do the 9, but I have a physio appointment at 3."}},
			[]plan{{"Auditors", "2026-03-31 09:00", 30}, {"Physio Appointment", "2026-03-31 15:00", 30}}},
		{"a day-long thing moved, named earlier in the breath", []turn{{"1", "The conference was going to be on the 2nd, but the hall flooded. It's now Friday the 17th of April, all day."}, {"U", "Okay."}},
			[]plan{{"Conference", "2026-04-17 09:00", 30}}},
		// Going to see someone on a day is a plan; a goodbye is none.
		{"visiting a relation named before", []turn{{"1", "your uncle frank is back in hospital"}, {"U", "oh no which ward"}, {"1", "ward six visiting is from two"}, {"U", "i'll go and see him on saturday at three"}},
			[]plan{{"Visit Uncle Frank", "2026-03-28 15:00", 30}}},
		{"visiting the parents on a day", []turn{{"U", "We're visiting my parents on Sunday."}},
			[]plan{{"Visit Parents", "2026-03-29 09:00", 30}}},
		{"see you is a goodbye", []turn{{"1", "Thanks, that was useful."}, {"U", "Great, I'll see you on Monday then."}}, []plan{}},
		{"the teller's own trip with a day-long thing", []turn{{"1", "I'm off to Porto on Tuesday for the summit, back Friday."}, {"U", "Nice, enjoy."}}, []plan{}},
		// Probed with fresh sentences: slots offered, relayed, run on, moved.
		{"a slot offered with do", []turn{{"1", "hi it's linda from dr patel's office we need to reschedule your colonoscopy from the thirtieth"}, {"U", "okay when"}, {"1", "we can do thursday the second at seven fifteen"}, {"U", "that works"}},
			[]plan{{"Colonoscopy", "2026-04-02 07:15", 30}}},
		{"a tradesperson's slot relayed and taken", []turn{{"1", "the plumber can't come tomorrow anymore he's sick"}, {"U", "ugh okay"}, {"1", "he said monday at ten instead"}, {"U", "fine monday at ten"}},
			[]plan{{"Plumber Visit", "2026-03-30 10:00", 30}}},
		{"booking tonight, flying later, run on", []turn{{"U", "my husband is booking the flights tonight we fly out on the third of april at six in the morning"}},
			[]plan{{"Flight", "2026-04-03 06:00", 30}}},
		{"a plan that was moved is ahead", []turn{{"1", "The school concert was moved to Tuesday at 5:30."}, {"U", "Okay, I'll be there."}},
			[]plan{{"School Concert", "2026-03-31 17:30", 30}}},
		{"a follow up put in", []turn{{"1", "i've put you in for a follow up in three weeks on thursday the sixteenth of april at nine"}, {"U", "perfect"}},
			[]plan{{"Follow-up Appointment", "2026-04-16 09:00", 30}}},
		{"the user's own professional, got", []turn{{"U", "Tomorrow I've got the optician at 11:40, so I'll be late."}},
			[]plan{{"Optician Appointment", "2026-03-27 11:40", 30}}},
		{"a gala with a range", []turn{{"U", "so we've got the kids' swimming gala on sunday from ten till two"}},
			[]plan{{"Kids Swimming Gala", "2026-03-29 10:00", 180}}},
		{"off to somewhere is no cancellation", []turn{{"U", "We're off to the concert on Saturday at 8."}},
			[]plan{{"Concert", "2026-03-28 20:00", 30}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := structure(t, dialogueInput(thu, tt.turns...))
			if d := cmp.Diff(tt.want, plans(s, berlin)); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			for _, e := range s.Events {
				if utf8.RuneCountInString(e.Description) > maxEventDescRune {
					t.Errorf("event %+v: description longer than a sentence", e)
				}
				if e.Start.Location() != time.UTC || e.Created || e.Description == "" {
					t.Errorf("event %+v: want a UTC start, created=false and a description", e)
				}
			}
		})
	}
}

// TestEventDescriptionIsItsSentence: the description is what was said about
// the plan, its sentence, or its clause when a recogniser wrote the words
// without sentence ends; never the overview or the whole run.
func TestEventDescriptionIsItsSentence(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	wed := time.Date(2026, 11, 25, 10, 0, 0, 0, ny)
	tests := []struct{ name, text, want string }{
		{"punctuated", "The garage called about the car. They can do the brake service on Monday November 30th at 8 am. I said that works.",
			"They can do the brake service on Monday November 30th at 8 am."},
		{"run-on", "so the garage called about the car they can do the brake service on monday november 30th at 8 am and i said that works for me",
			"they can do the brake service on monday november 30th at 8 am"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := structure(t, dialogueInput(wed, turn{"U", tt.text}, turn{"1", "okay great"}))
			if len(s.Events) != 1 {
				t.Fatalf("events %+v, want the brake service", s.Events)
			}
			got := s.Events[0].Description
			if !strings.Contains(got, tt.want) || strings.Contains(got, "works") {
				t.Errorf("description %q, want the plan's sentence %q and not the next one", got, tt.want)
			}
		})
	}
}
