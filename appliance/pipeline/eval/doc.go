// Package eval scores a conversation extractor against a labelled corpus it
// was not written against (testdata/conversations, see its README): events,
// action items, their start and due instants, memories and the discard
// decision, each as precision, recall and F1, on the development half and on
// the held-out half separately.
//
// Matching rule. Text is compared as content words: lowercased, split on
// anything that is not a letter or digit, stop words dropped, a plural or
// possessive "s" and an "ing" stripped, a day's ordinal suffix dropped
// ("12th" is the "12" a date is written with). Each label takes at most one
// extracted item and each item one label: the pair sharing most content
// words is made first, then the best of the rest (ties in label order), so
// a label sharing one word with an item cannot take it from a later label
// the item describes fully.
//
//   - An event matches a labelled event when its title and description share
//     at least one content word with the label's title and its start falls
//     on the label's date in the conversation's zone, or when its start is
//     the label's very instant (a plan at the labelled minute is the
//     labelled plan however it is worded: "Call" for "Budget review with
//     Maria"). Its start is exact when the label gives a time and the
//     instants are equal.
//   - An action item matches when its description shares at least a third
//     (rounded up) of the label's content words. Its due date is exact when
//     the label gives an instant and they are equal, or gives a date and the
//     due falls on it.
//   - A memory matches when it shares at least half (rounded up) of the
//     label's content words.
//   - An item matching only an "acceptable" label counts neither as a hit
//     nor as a false positive; a missed acceptable label is not a miss.
//   - Discard accuracy leaves out conversations labelled discard_either.
//
// Generalisation is also measured inside the development half, where the
// rules were read: five folds by name hash (FoldOf) for whatever is learned
// or tuned (CrossValidate, the clause model; fold 4 is the one no round
// has read), and live twins of the
// punctuated conversations (LiveTwin: the same words as a live recognizer
// writes them, labels unchanged), which the rules were never read against.
//
// Due instants, the labelling contract. An action item's due is what a
// careful labeller writes for the kind of time said with the task (the
// extractor follows the kind, not the case; TestDueKinds tallies the
// development folds by kind, builtin's TestDueConventions pins each):
//   - a day with no hour is a bare date, matched by the day (the extractor
//     says 23:59); an hour said ("by Friday at 5", "before Friday noon") is
//     that instant;
//   - "by", "until", "no later than" a day is that day; "before" a day is
//     the day before (also in a clause: "before it expires on the 31st" is
//     the 30th; "before they close at five" is 17:00); "before lunch" is
//     noon; "by then", "ready for that" point at the time just said;
//   - "end of day", "EOD", "close of business", "end of play" are 17:00 of
//     the day said (today when none); "tonight" is the evening, 18:00;
//   - "this week", "within the week", "by the end of the week" are its
//     Friday (said on a Sunday: the coming week's); "next week" is next
//     week's Friday, "early" / "mid" / "late next week" its Monday,
//     Wednesday, Friday; "this weekend" is its Sunday; "end of the month" is
//     the month's last day;
//   - a weekday is its next occurrence (a week ahead when it names today);
//   - a time said first in a sentence, before its subject, is the due of
//     every task of the sentence with no time of its own ("On Friday I need
//     to call the bank and pick up the dry cleaning"); one said last after
//     deeds joined under one subject is each deed's ("… call the bank and
//     pick up the dry cleaning by Friday");
//   - a time said in another sentence is the task's when it is said alone
//     in the next few turns, by either speaker, before the talk moves on
//     ("Can you send the report?" "Sure, by Thursday."; "I'll send it."
//     "By Friday?" "Yes."), when it is the thing's deadline said just
//     before or after ("The forms are due Friday." "I'll fill them in.";
//     "It has to be done by…", "We need it back by…", "Friday's the
//     deadline"), or when it heads a list ("things to do today: …");
//   - no time said anywhere for the task: no due.
//
// Instant exactness is taken over matched items whose label states a time
// (events) or a due (action items); a time said for an event matched on its
// date but at another hour is a miss of exactness, not of the event.
package eval
