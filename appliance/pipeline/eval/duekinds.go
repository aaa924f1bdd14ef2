package eval

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance/pipeline"
)

// Due kinds. An action item's due is the weakest instant the extractor
// gives, and its errors are not one kind: a deadline word, a part of the day
// or a period ("tonight", "this week", "end of the month"), a weekday ahead
// of or behind the conversation's start, a time said in another sentence
// than the task, no time said at all. DueKinds sorts each labelled action
// item by the kind of time its sentence says and counts, per kind, how often
// the extractor's due agrees with the label; it is a reading aid for the
// development folds (the held-out half is never passed to it).

// DueKind is one kind's tally.
type DueKind struct {
	Kind string
	// Labels are the labelled items of the kind; Matched those the
	// extractor found; Exact those whose due agrees (for an item labelled
	// with no due: the extractor gave none either).
	Labels, Matched, Exact int
	// DateOnly counts the kind's labels that are a bare date, the rest give
	// an hour; Hours are the labels' hours, as "15:04", most common first.
	DateOnly int
	Hours    map[string]int
	Misses   []string
	// All are every label of the kind with its sentence and what was got.
	All []string
}

// dueKinds are the kinds in the order a sentence is tested for them: the
// first that matches is its kind.
var dueKinds = []struct {
	name string
	re   *regexp.Regexp
}{
	{"end of the month", regexp.MustCompile(`\b(end of (the )?month|month end|month's end)\b`)},
	{"this week / end of week", regexp.MustCompile(`\b(this week|end of (the )?week|week's end|by the weekend|this weekend)\b`)},
	{"next week", regexp.MustCompile(`\bnext week\b`)},
	{"end of day / close of business", regexp.MustCompile(`\b(end of (the )?day|eod|close of business|cob)\b`)},
	{"tonight / this evening", regexp.MustCompile(`\b(tonight|this evening)\b`)},
	{"part of a day (morning, afternoon)", regexp.MustCompile(`\b(morning|afternoon|evening|lunchtime|lunch time)\b`)},
	{"clock time", regexp.MustCompile(`\b(\d{1,2}(:\d\d)?\s*(am|pm|a\.m\.|p\.m\.|o'clock)|\d{1,2}:\d\d|noon|midday|midnight|half past|quarter (past|to)|o'clock|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (thirty|fifteen|forty five|am|pm))\b`)},
	{"a date (month or ordinal)", regexp.MustCompile(`\b(january|february|march|april|may|june|july|august|september|october|november|december|\d{1,2}(st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|twentieth|thirtieth)\b)`)},
	{"weekday", regexp.MustCompile(`\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)},
	{"today / tomorrow / the day after", regexp.MustCompile(`\b(today|tomorrow|day after)\b`)},
	{"an offset (in two days, asap)", regexp.MustCompile(`\b(in (a|an|one|two|three|four|five|ten|\d+) (minutes?|hours?|days?|weeks?)|asap|as soon as|right away|first thing)\b`)},
}

var dueDeadline = regexp.MustCompile(`\b(by|before|until|till|no later than|due)\b`)

// dueKindOf is the kind of time said in text, "" for none; a deadline word
// before it is noted.
func dueKindOf(text string) string {
	t := strings.ToLower(text)
	for _, k := range dueKinds {
		if k.re.MatchString(t) {
			if k.name == "weekday" || k.name == "a date (month or ordinal)" {
				if dueDeadline.MatchString(t) {
					return k.name + ", with a deadline word"
				}
			}
			return k.name
		}
	}
	return ""
}

// labelUtterance is the index of the segment sharing most content words
// with the item's description, -1 when none shares a third of them.
func labelUtterance(c *Case, desc string) int {
	w := contentWords(desc)
	best, at := 0, -1
	for i, s := range c.Segments {
		n := shared(w, contentWords(s.Text))
		if n > best && 3*n >= len(w) {
			best, at = n, i
		}
	}
	return at
}

// DueKinds runs p over cases and tallies their labelled action items by the
// kind of time their sentence says.
func DueKinds(ctx context.Context, p *pipeline.Pipeline, cases []Case) ([]DueKind, error) {
	byKind := map[string]*DueKind{}
	for i := range cases {
		c := &cases[i]
		conv := c.Conversation()
		if _, err := p.Process(ctx, conv, pipeline.Options{Location: c.Location()}); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		got := conv.Structured.ActionItems
		if conv.Discarded {
			got = nil
		}
		pair := pairing(len(c.ActionItems), len(got), func(l, i int) int { return itemScore(c.ActionItems[l], got[i]) })
		for l, gi := range pair {
			want := c.ActionItems[l]
			kind := "no time said"
			u := labelUtterance(c, want.Description)
			switch {
			case u < 0:
				kind = "task not found in one sentence"
			case dueKindOf(c.Segments[u].Text) != "":
				kind = dueKindOf(c.Segments[u].Text)
				if want.Due == nil {
					kind = "time said, no due labelled"
				}
			case want.Due != nil:
				kind = "time in another sentence"
			}
			if want.Due != nil && kind != "time in another sentence" && strings.HasPrefix(kind, "weekday") {
				if wd := weekdayAhead(c, want.Due); wd != "" {
					kind += wd
				}
			}
			k := byKind[kind]
			if k == nil {
				k = &DueKind{Kind: kind, Hours: map[string]int{}}
				byKind[kind] = k
			}
			k.Labels++
			switch {
			case want.Due == nil:
			case want.Due.DateOnly:
				k.DateOnly++
			default:
				k.Hours[want.Due.Time.In(c.loc).Format("15:04")]++
			}
			sent := ""
			if u >= 0 {
				sent = c.Segments[u].Text
			}
			w := "none"
			if want.Due != nil {
				w = whenString(*want.Due, c.loc)
				if want.Due.DateOnly {
					w += " " + want.Due.Time.Weekday().String()[:3]
				}
			}
			if gi < 0 {
				k.All = append(k.All, fmt.Sprintf("%s (start %s): %q: missed, want %s", c.Name, c.StartedAt.In(c.loc).Format("Mon 15:04"), sent, w))
				continue
			}
			k.Matched++
			due := got[gi].DueAt
			ok := false
			switch {
			case want.Due == nil:
				ok = due == nil
			case due == nil:
			case want.Due.DateOnly:
				ok = want.Due.sameDay(*due, c.loc)
			default:
				ok = due.Equal(want.Due.Time)
			}
			g := "none"
			if due != nil {
				g = due.In(c.loc).Format("Mon 2006-01-02 15:04")
			}
			line := fmt.Sprintf("%s (start %s): %q: got %s, want %s", c.Name, c.StartedAt.In(c.loc).Format("Mon 15:04"), sent, g, w)
			k.All = append(k.All, line)
			if ok {
				k.Exact++
				continue
			}
			k.Misses = append(k.Misses, line)
		}
	}
	out := make([]DueKind, 0, len(byKind))
	for _, k := range byKind {
		out = append(out, *k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Labels > out[j].Labels })
	return out, nil
}

// weekdayAhead says whether a weekday's due lies later in the week of the
// conversation's start or in the next one.
func weekdayAhead(c *Case, due *When) string {
	start := c.StartedAt.In(c.loc)
	d := due.Time
	if !due.DateOnly {
		d = d.In(c.loc)
	}
	days := int(time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC).Sub(
		time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)).Hours() / 24)
	switch {
	case days <= 0:
		return " (the same day or before)"
	case int(start.Weekday())+days <= 7:
		return " (ahead in the week)"
	default:
		return " (in the next week)"
	}
}

// DueKindTable is the tally as a Markdown table.
func DueKindTable(ks []DueKind) string {
	var b strings.Builder
	b.WriteString("| kind of time said with the task | labelled | matched | due agrees | labels: bare date / hours |\n|---|---|---|---|---|\n")
	for _, k := range ks {
		hours := make([]string, 0, len(k.Hours))
		for h, n := range k.Hours {
			hours = append(hours, fmt.Sprintf("%s×%d", h, n))
		}
		sort.Strings(hours)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d / %s |\n", k.Kind, k.Labels, k.Matched, k.Exact, k.DateOnly, strings.Join(hours, " "))
	}
	return b.String()
}
