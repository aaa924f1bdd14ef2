package builtin

import "github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"

// Done in the call. "Hi, I need to move my cleaning from this Friday." …
// "Done, you're booked for Tuesday the 17th at 9:45.": the user asked the
// one who books for the booking, and it was made while they talked; no
// task is left (the plan is the event).

// bookingStems are the stems of deeds a provider does on the phone.
var bookingStems = lexicon.NewSet(`book rebook mov move reschedul reschedule cancel chang change`)

// confirmWords in a later turn of the other speaker say the deed is done.
var confirmWords = lexicon.NewSet(`booked rebooked cancelled canceled rescheduled moved`)

// doneInCall drops the user's booking deeds that another speaker confirmed
// later in the conversation.
func (dl *dialogue) doneInCall(tasks []task) []task {
	out := tasks[:0]
	for _, t := range tasks {
		if t.utt >= 0 && t.utt < len(dl.utts) && dl.utts[t.utt].isUser && (inSet(bookingStems, t.verb) || inSet(bookingStems, stemOf(t.verb))) && dl.confirmedAfter(t.utt) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// stemOf trims a stem's trailing "e" so "reschedule" and "reschedul" agree.
func stemOf(v string) string {
	if len(v) > 4 && v[len(v)-1] == 'e' {
		return v[:len(v)-1]
	}
	return v
}

// confirmedAfter: another speaker confirms a booking after utterance i
// ("you're booked for…", "that's cancelled", "I've put you down for…").
func (dl *dialogue) confirmedAfter(i int) bool {
	for j := i + 1; j < len(dl.utts); j++ {
		v := &dl.utts[j]
		if v.isUser || v.question {
			continue
		}
		ws := v.words
		for k := range ws {
			if inSet(confirmWords, ws[k].lower) && k > 0 && (inSet(copulas, ws[k-1].lower) || ws[k-1].lower == "you're" ||
				ws[k-1].lower == "i've" || ws[k-1].lower == "that's" || ws[k-1].lower == "it's" || ws[k-1].lower == "all") {
				return true
			}
			if hasSeq(ws, k, "put", "you", "down") || hasSeq(ws, k, "got", "you", "down") || hasSeq(ws, k, "put", "you", "in") {
				return true
			}
		}
	}
	return false
}
