package builtin

import (
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Tasks due before a named plan. "I need to set up broadband at the new
// place, ideally before the move" is due the day before the move; "the
// financial summary I'll circulate a week before" is due a week before the
// conversation's plan ("the board meeting moved to December 10th"). Like
// "before Wednesday", "before" a day ends the day before it.

// beforeNamed reads "[N days|a week] before [the <plan>]" in ws: how many
// days before, and the word naming the plan ("" when none is named). ok is
// false when ws says neither a count nor a plan after "before".
func beforeNamed(ws []cword) (days int, plan string, at int, ok bool) {
	for k := 1; k < len(ws); k++ {
		if ws[k].lower != "before" || ws[k-1].punct != 0 && k+1 < len(ws) && ws[k-1].punct != ',' {
			continue
		}
		days, at = 1, k
		switch p := ws[k-1].lower; {
		case p == "week" || p == "weeks":
			days = 7 * max(1, countBefore(ws, k-1))
			at = k - 1 - min(1, countBefore(ws, k-1))
		case p == "day" || p == "days":
			if wordAt(ws, k-2) == "the" {
				continue // "the day before" is dueBeforePlan's
			}
			days = max(1, countBefore(ws, k-1))
			at = k - 1 - min(1, countBefore(ws, k-1))
		}
		next := wordAt(ws, k+1)
		switch {
		case next == "the" || next == "our" || next == "my" || next == "your":
			if k+2 < len(ws) && !ws[k+2].is(wcStop) && !startsCue(ws, k+2) {
				return days, ws[k+2].lower, at, true
			}
		case k+1 == len(ws) || ws[k].punct != 0:
			if days > 1 || at < k {
				return days, "", at, true // "a week before."
			}
		}
	}
	return 0, "", 0, false
}

// countBefore is the count said before the unit at ws[u] ("a week", "two
// days"), 0 when none.
func countBefore(ws []cword, u int) int {
	w := wordAt(ws, u-1)
	if w == "a" || w == "one" {
		return 1
	}
	if n, ok := countWords[w]; ok && n >= 1 && n <= 30 {
		return int(n)
	}
	return 0
}

// planNamed is the plan in evs whose title (or, failing that, description)
// holds word; with word "", the earliest plan.
func planNamed(evs []appliance.Event, word string) (appliance.Event, bool) {
	if word == "" {
		if len(evs) == 0 {
			return appliance.Event{}, false
		}
		first := evs[0]
		for _, e := range evs[1:] {
			if e.Start.Before(first.Start) {
				first = e
			}
		}
		return first, true
	}
	stem := strings.TrimSuffix(word, "s")
	for _, field := range []func(appliance.Event) string{
		func(e appliance.Event) string { return e.Title },
		func(e appliance.Event) string { return e.Description },
	} {
		for _, e := range evs {
			for _, w := range strings.Fields(strings.ToLower(field(e))) {
				if strings.TrimSuffix(strings.Trim(w, ".,!?"), "s") == stem {
					return e, true
				}
			}
		}
	}
	return appliance.Event{}, false
}

// dueBeforeNamed dates the undated task t said in ws by the plan it is said
// before, and drops the count it was said with from its description.
func dueBeforeNamed(t *task, ws []cword, evs []appliance.Event, tm timing) {
	days, word, _, ok := beforeNamed(ws)
	if !ok {
		return
	}
	e, found := planNamed(evs, word)
	if !found {
		return
	}
	day := e.Start.In(tm.loc)
	at := time.Date(day.Year(), day.Month(), day.Day()-days, 23, 59, 0, 0, tm.loc)
	if at.Before(tm.start) && days == 1 && word != "" {
		at = e.Start // "before the meeting" this afternoon: by its start
	}
	if at.Before(tm.start) {
		return
	}
	at = at.UTC()
	t.due = &at
	for _, unit := range []string{" a week", " a day", " two days", " a few days", " two weeks", " the week"} {
		t.desc = strings.TrimSuffix(t.desc, unit)
	}
}
