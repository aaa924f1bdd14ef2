package eval

import (
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Counts is one field's tally: Found extracted items, Want labels, Hit
// labels matched (so hits among the extracted are Hit too), Extra extracted
// items matching no label, and among Hit the Timed ones whose label states
// a time and the Exact ones of those.
type Counts struct {
	Found, Want, Hit, Extra int
	Timed, Exact            int
}

// Add sums o into c.
func (c *Counts) Add(o Counts) {
	c.Found += o.Found
	c.Want += o.Want
	c.Hit += o.Hit
	c.Extra += o.Extra
	c.Timed += o.Timed
	c.Exact += o.Exact
}

// Precision is hits over hits and false positives (items that matched only
// an acceptable label are neither).
func (c Counts) Precision() float64 { return ratio(c.Hit, c.Hit+c.Extra) }

// Recall is hits over labels.
func (c Counts) Recall() float64 { return ratio(c.Hit, c.Want) }

// F1 is the harmonic mean of precision and recall.
func (c Counts) F1() float64 {
	p, r := c.Precision(), c.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// ExactRate is the share of timed hits whose instant is exact.
func (c Counts) ExactRate() float64 { return ratio(c.Exact, c.Timed) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// Miss describes one disagreement with the labels, for reading the
// development half's misses.
type Miss struct {
	Case, Field, What string
}

// pairing matches labels to extracted items one to one, best pairs first:
// of all label and item pairs with a score above 0, the highest is paired,
// then the highest among the rest, ties in label then item order. Taking
// labels in order instead would let a first label that shares one word with
// an item take it from a later label it describes fully.
func pairing(labels, items int, score func(l, i int) int) []int {
	out := make([]int, labels)
	for l := range out {
		out[l] = -1
	}
	scores := make([][]int, labels)
	for l := range labels {
		scores[l] = make([]int, items)
		for i := range items {
			scores[l][i] = score(l, i)
		}
	}
	used := make([]bool, items)
	for {
		bl, bi, best := -1, -1, 0
		for l := range labels {
			if out[l] >= 0 {
				continue
			}
			for i := range items {
				if !used[i] && scores[l][i] > best {
					bl, bi, best = l, i, scores[l][i]
				}
			}
		}
		if bl < 0 {
			return out
		}
		out[bl] = bi
		used[bi] = true
	}
}

func eventScore(want Event, got appliance.Event, loc *time.Location) int {
	if !want.Start.sameDay(got.Start, loc) {
		return 0
	}
	n := shared(contentWords(want.Title), contentWords(got.Title+" "+got.Description))
	if n == 0 && !want.Start.DateOnly && got.Start.Equal(want.Start.Time) {
		// a plan at the labelled minute of the labelled day is the labelled
		// plan, however it is worded ("Call" for "Budget review with Maria")
		n = 1
	}
	return n
}

func itemScore(want Item, got appliance.ActionItem) int {
	w := contentWords(want.Description)
	n := shared(w, contentWords(got.Description))
	if n == 0 || 3*n < len(w) {
		return 0
	}
	return n
}

func memoryScore(want Memory, got appliance.Memory) int {
	w := contentWords(want.Content)
	n := shared(w, contentWords(got.Content))
	if n == 0 || 2*n < len(w) {
		return 0
	}
	return n
}

// scoreEvents tallies extracted events against the case's labels.
func scoreEvents(c *Case, got []appliance.Event, miss func(field, what string)) Counts {
	n := Counts{Found: len(got), Want: len(c.Events)}
	pair := pairing(len(c.Events), len(got), func(l, i int) int { return eventScore(c.Events[l], got[i], c.loc) })
	taken := make([]bool, len(got))
	for l, i := range pair {
		want := c.Events[l]
		if i < 0 {
			miss("event", "missed "+want.Title+" at "+whenString(want.Start, c.loc))
			continue
		}
		taken[i] = true
		n.Hit++
		if !want.Start.DateOnly {
			n.Timed++
			if got[i].Start.Equal(want.Start.Time) {
				n.Exact++
			} else {
				miss("event start", want.Title+": got "+got[i].Start.In(c.loc).Format(time.DateTime)+", want "+whenString(want.Start, c.loc))
			}
		}
	}
	okPair := pairing(len(c.OKEvents), len(got), func(l, i int) int {
		if taken[i] {
			return 0
		}
		return eventScore(c.OKEvents[l], got[i], c.loc)
	})
	for _, i := range okPair {
		if i >= 0 {
			taken[i] = true
		}
	}
	for i, ev := range got {
		if !taken[i] {
			n.Extra++
			miss("event", "extra "+ev.Title+" at "+ev.Start.In(c.loc).Format(time.DateTime))
		}
	}
	return n
}

// scoreItems tallies extracted action items against the case's labels.
func scoreItems(c *Case, got []appliance.ActionItem, miss func(field, what string)) Counts {
	n := Counts{Found: len(got), Want: len(c.ActionItems)}
	pair := pairing(len(c.ActionItems), len(got), func(l, i int) int { return itemScore(c.ActionItems[l], got[i]) })
	taken := make([]bool, len(got))
	for l, i := range pair {
		want := c.ActionItems[l]
		if i < 0 {
			miss("action item", "missed "+want.Description)
			continue
		}
		taken[i] = true
		n.Hit++
		if want.Due == nil {
			continue
		}
		n.Timed++
		due := got[i].DueAt
		switch {
		case due != nil && want.Due.DateOnly && want.Due.sameDay(*due, c.loc),
			due != nil && !want.Due.DateOnly && due.Equal(want.Due.Time):
			n.Exact++
		default:
			g := "none"
			if due != nil {
				g = due.In(c.loc).Format(time.DateTime)
			}
			miss("action item due", want.Description+": got "+g+", want "+whenString(*want.Due, c.loc))
		}
	}
	okPair := pairing(len(c.OKActionItems), len(got), func(l, i int) int {
		if taken[i] {
			return 0
		}
		return itemScore(c.OKActionItems[l], got[i])
	})
	for _, i := range okPair {
		if i >= 0 {
			taken[i] = true
		}
	}
	for i, it := range got {
		if !taken[i] {
			n.Extra++
			miss("action item", "extra "+it.Description)
		}
	}
	return n
}

// scoreMemories tallies extracted memories; Timed and Exact count matched
// memories and those of the labelled category.
func scoreMemories(c *Case, got []appliance.Memory, miss func(field, what string)) Counts {
	n := Counts{Found: len(got), Want: len(c.Memories)}
	pair := pairing(len(c.Memories), len(got), func(l, i int) int { return memoryScore(c.Memories[l], got[i]) })
	taken := make([]bool, len(got))
	for l, i := range pair {
		if i < 0 {
			miss("memory", "missed "+c.Memories[l].Content)
			continue
		}
		taken[i] = true
		n.Hit++
		n.Timed++
		if got[i].Category == c.Memories[l].Category {
			n.Exact++
		}
	}
	okPair := pairing(len(c.OKMemories), len(got), func(l, i int) int {
		if taken[i] {
			return 0
		}
		return memoryScore(c.OKMemories[l], got[i])
	})
	for _, i := range okPair {
		if i >= 0 {
			taken[i] = true
		}
	}
	for i, m := range got {
		if !taken[i] {
			n.Extra++
			miss("memory", "extra "+m.Content)
		}
	}
	return n
}

func whenString(w When, loc *time.Location) string {
	if w.DateOnly {
		return w.date
	}
	return w.Time.In(loc).Format(time.DateTime)
}
