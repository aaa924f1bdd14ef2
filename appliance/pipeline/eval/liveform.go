package eval

import (
	"strconv"
	"strings"
	"unicode"
)

// Live twins. A punctuated conversation said again as a live recognizer
// gives it (lowercase, no punctuation, numbers spoken) holds the same
// events, tasks and memories, so its labels carry over; the rules, read
// against the written form, never saw this one. Scoring the twins of the
// development half measures how the extractor holds across the form of a
// transcript, one of the ways the held-out half differs from what was read.

const liveSuffix = "~live"

// LiveTwin is c said as a live recognizer gives it; its name gets "~live".
func LiveTwin(c Case) Case {
	t := c
	t.Name = c.Name + liveSuffix
	t.Form = "unpunctuated"
	t.Segments = make([]Segment, len(c.Segments))
	for i, s := range c.Segments {
		s.Text = liveText(s.Text)
		t.Segments[i] = s
	}
	return t
}

// liveText lowercases s, drops its punctuation (keeping apostrophes inside
// words) and spells its numbers: "At 9:30, on the 21st." → "at nine thirty
// on the twenty first".
func liveText(s string) string {
	var out []string
	for _, f := range strings.Fields(s) {
		f = strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		switch f {
		case "":
			continue
		case "a.m", "p.m":
			f = f[:1] + "m" // a recognizer writes "am", "pm"
		}
		for _, part := range strings.Split(f, "-") {
			if part != "" {
				out = append(out, spokenToken(part))
			}
		}
	}
	return strings.Join(out, " ")
}

// spokenToken spells a token holding digits: a clock ("9:30", "10:00"), an
// ordinal ("21st"), a number ("2026", "1,500"), a number glued to a unit or
// a meridiem ("8am"); others are kept.
func spokenToken(f string) string {
	if !strings.ContainsAny(f, "0123456789") {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' {
				return r
			}
			return ' '
		}, f)
	}
	if h, m, ok := strings.Cut(f, ":"); ok {
		hn, err1 := strconv.Atoi(h)
		mn, err2 := strconv.Atoi(m)
		if err1 == nil && err2 == nil {
			switch {
			case mn == 0:
				return numberWords(hn)
			case mn < 10:
				return numberWords(hn) + " oh " + numberWords(mn)
			}
			return numberWords(hn) + " " + numberWords(mn)
		}
	}
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if n, err := strconv.Atoi(strings.TrimSuffix(f, suf)); err == nil && strings.HasSuffix(f, suf) {
			return ordinalWords(n)
		}
	}
	digits := strings.ReplaceAll(f, ",", "")
	k := 0
	for k < len(digits) && digits[k] >= '0' && digits[k] <= '9' {
		k++
	}
	n, err := strconv.Atoi(digits[:k])
	if err != nil {
		return f
	}
	words := numberWords(n)
	if 1900 <= n && n < 2100 && k == 4 {
		words = numberWords(n/100) + " " + numberWords(n%100) // a year: "twenty twenty six"
	}
	if rest := digits[k:]; rest != "" {
		words += " " + rest
	}
	return words
}

var (
	ones = strings.Fields("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
	tens = strings.Fields("_ _ twenty thirty forty fifty sixty seventy eighty ninety")
)

// numberWords spells n as it is said.
func numberWords(n int) string {
	switch {
	case n < 0:
		return "minus " + numberWords(-n)
	case n < 20:
		return ones[n]
	case n < 100:
		if n%10 == 0 {
			return tens[n/10]
		}
		return tens[n/10] + " " + ones[n%10]
	case n < 1000:
		if n%100 == 0 {
			return ones[n/100] + " hundred"
		}
		return ones[n/100] + " hundred and " + numberWords(n%100)
	case n < 1000000:
		if n%1000 == 0 {
			return numberWords(n/1000) + " thousand"
		}
		return numberWords(n/1000) + " thousand " + numberWords(n%1000)
	}
	return strconv.Itoa(n)
}

var ordinalOnes = map[string]string{
	"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth", "twelve": "twelfth",
}

// ordinalWords spells n as an ordinal: 21 → "twenty first".
func ordinalWords(n int) string {
	w := numberWords(n)
	i := strings.LastIndexByte(w, ' ')
	last := w[i+1:]
	switch {
	case ordinalOnes[last] != "":
		last = ordinalOnes[last]
	case strings.HasSuffix(last, "y"):
		last = strings.TrimSuffix(last, "y") + "ieth"
	default:
		last += "th"
	}
	return w[:i+1] + last
}
