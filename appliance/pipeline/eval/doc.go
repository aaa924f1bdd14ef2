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
// or tuned (CrossValidate, the clause model), and live twins of the
// punctuated conversations (LiveTwin: the same words as a live recognizer
// writes them, labels unchanged), which the rules were never read against.
//
// Instant exactness is taken over matched items whose label states a time
// (events) or a due (action items); a time said for an event matched on its
// date but at another hour is a miss of exactness, not of the event.
package eval
