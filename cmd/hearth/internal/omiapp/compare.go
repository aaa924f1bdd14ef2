package omiapp

import (
	"fmt"
	"strings"
	"unicode"
)

// Repeats that SameText reports: a run of at least adjacentRun words said
// twice in a row (what a segment shown twice looks like), or a run of at
// least anywhereRun words that occurs twice anywhere. Single repeated
// words ("very very") are ordinary speech.
const (
	adjacentRun = 2
	anywhereRun = 6
)

// SameText reports whether the app's view shows the stored transcript:
// the view's texts joined by spaces equal the stored segments' texts
// joined by spaces (whitespace normalised), and neither repeats a run of
// words (a segment shown or stored twice). The error says where they part
// and lists both sides segment by segment.
func SameText(view, stored []Segment) error {
	v, s := joinText(view), joinText(stored)
	var problems []string
	if v != s {
		problems = append(problems, "the app shows other text than is stored:\n"+wordDiff(strings.Fields(s), strings.Fields(v)))
	}
	if r := repeatedRun(v); r != "" {
		problems = append(problems, "the app's view repeats "+r)
	}
	if r := repeatedRun(s); r != "" {
		problems = append(problems, "the stored transcript repeats "+r)
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s\napp view (%d segments):\n%sstored (%d segments):\n%s",
		strings.Join(problems, "\n"), len(view), Describe(view), len(stored), Describe(stored))
}

// Describe lists segments one a line: id, speaker, times, text.
func Describe(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		fmt.Fprintf(&b, "  %-12s %s user=%t %6.2f–%6.2f %q\n", short(s.ID), s.Speaker, s.IsUser, s.Start, s.End, s.Text)
	}
	return b.String()
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	if id == "" {
		return `""`
	}
	return id
}

// Text is the segments' texts joined by single spaces.
func Text(segs []Segment) string { return joinText(segs) }

func joinText(segs []Segment) string {
	var parts []string
	for _, s := range segs {
		parts = append(parts, s.Text)
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

// normWord is a word for comparing runs: lower case, letters, digits and
// apostrophes only.
func normWord(w string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' {
			return unicode.ToLower(r)
		}
		return -1
	}, w)
}

// repeatedRun describes the first repeated run of words in text, or "".
func repeatedRun(text string) string {
	words := strings.Fields(text)
	norm := make([]string, len(words))
	for i, w := range words {
		norm[i] = normWord(w)
	}
	eq := func(i, j, n int) bool {
		for k := range n {
			if norm[i+k] != norm[j+k] || norm[i+k] == "" {
				return false
			}
		}
		return true
	}
	// Adjacent: words[i:i+n] == words[i+n:i+2n]; the longest such run at
	// the first place it occurs.
	for i := range norm {
		for n := (len(norm) - i) / 2; n >= adjacentRun; n-- {
			if eq(i, i+n, n) {
				return fmt.Sprintf("%q twice in a row (words %d–%d)", strings.Join(words[i:i+n], " "), i+1, i+2*n)
			}
		}
	}
	seen := map[string]int{}
	for i := 0; i+anywhereRun <= len(norm); i++ {
		key := strings.Join(norm[i:i+anywhereRun], " ")
		if key == "" {
			continue
		}
		if j, ok := seen[key]; ok {
			return fmt.Sprintf("%q at words %d and %d", strings.Join(words[i:i+anywhereRun], " "), j+1, i+1)
		}
		seen[key] = i
	}
	return ""
}

// wordDiff shows where want (stored) and got (view) part: their words as
// one line with -[stored only] and +[view only] runs, a few words of
// context around each.
func wordDiff(want, got []string) string {
	// Longest common subsequence over words; transcripts are a few
	// hundred words.
	n, m := len(want), len(got)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		word string
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			ops = append(ops, op{' ', want[i]})
			i, j = i+1, j+1
		case i < n && (j == m || l[i+1][j] >= l[i][j+1]):
			ops = append(ops, op{'-', want[i]})
			i++
		default:
			ops = append(ops, op{'+', got[j]})
			j++
		}
	}
	const context = 4
	keep := make([]bool, len(ops))
	for k, o := range ops {
		if o.kind != ' ' {
			for c := max(0, k-context); c <= min(len(ops)-1, k+context); c++ {
				keep[c] = true
			}
		}
	}
	var b strings.Builder
	b.WriteString("  ")
	skipped := false
	for k := 0; k < len(ops); {
		if !keep[k] {
			if !skipped {
				b.WriteString("… ")
				skipped = true
			}
			k++
			continue
		}
		skipped = false
		if ops[k].kind == ' ' {
			b.WriteString(ops[k].word + " ")
			k++
			continue
		}
		kind := ops[k].kind
		var run []string
		for k < len(ops) && ops[k].kind == kind {
			run = append(run, ops[k].word)
			k++
		}
		fmt.Fprintf(&b, "%c[%s] ", kind, strings.Join(run, " "))
	}
	b.WriteString("\n  (-[…] stored only, +[…] shown by the app only)")
	return b.String()
}
