package builtin

import (
	"strconv"
	"strings"
)

// Numbers are the first layer of the time grammar: speech recognisers and
// people write "nine thirty", "twenty-five", "thirty first" and "9 30" as
// often as "9:30" or "31st", so the clock and date constituents read their
// numbers here, over one or two words, rather than from lists of spellings.

var unitNumbers = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}

var tensNumbers = map[string]int{
	"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
	"eighty": 80, "ninety": 90,
}

var unitOrdinals = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
	"fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
	"nineteenth": 19,
}

var tensOrdinals = map[string]int{"twentieth": 20, "thirtieth": 30}

// cardinalAt reads a whole number at ws[i]: digits ("25"), a number word
// ("nine", "forty"), a hyphenated or two-word compound ("twenty-five",
// "twenty five"). It returns the value and the words read (0 for none); a
// compound never spans punctuation.
func cardinalAt(ws []cword, i int) (v, n int) {
	w := wordAt(ws, i)
	if w == "" {
		return 0, 0
	}
	if isDigits(w) {
		if len(w) > 5 {
			return 0, 0
		}
		v, _ := strconv.Atoi(w)
		return v, 1
	}
	if v, ok := compoundWord(w, unitNumbers); ok {
		return v, 1
	}
	if v, ok := unitNumbers[w]; ok {
		return v, 1
	}
	if t, ok := tensNumbers[w]; ok {
		if ws[i].punct == 0 {
			if u, ok := unitNumbers[wordAt(ws, i+1)]; ok && u >= 1 && u <= 9 {
				return t + u, 2
			}
		}
		return t, 1
	}
	return 0, 0
}

// ordinalAt reads a day-of-month ordinal: "3rd", "31st", "third",
// "thirtieth", "thirty-first", "thirty first", "twenty second".
func ordinalAt(ws []cword, i int) (v, n int) {
	w := wordAt(ws, i)
	if w == "" {
		return 0, 0
	}
	if len(w) > 2 {
		num, suf := w[:len(w)-2], w[len(w)-2:]
		if (suf == "st" || suf == "nd" || suf == "rd" || suf == "th") && isDigits(num) && len(num) <= 2 {
			v, _ := strconv.Atoi(num)
			return v, 1
		}
	}
	if v, ok := unitOrdinals[w]; ok {
		return v, 1
	}
	if v, ok := tensOrdinals[w]; ok {
		return v, 1
	}
	if v, ok := compoundWord(w, unitOrdinals); ok {
		return v, 1
	}
	if t, ok := tensNumbers[w]; ok && ws[i].punct == 0 {
		if u, ok := unitOrdinals[wordAt(ws, i+1)]; ok && u <= 9 {
			return t + u, 2
		}
	}
	return 0, 0
}

// compoundWord reads "twenty-five" (units from cardinal units) or
// "thirty-first" (units from ordinals).
func compoundWord(w string, units map[string]int) (int, bool) {
	tens, unit, ok := strings.Cut(w, "-")
	if !ok {
		return 0, false
	}
	t, ok1 := tensNumbers[tens]
	u, ok2 := units[unit]
	if !ok1 || !ok2 || u < 1 || u > 9 {
		return 0, false
	}
	return t + u, true
}

// minutesAt reads the minutes of a spoken or written clock after its hour:
// "30" and "05" as digits (two of them: "9 30"), "thirty", "forty five",
// "oh five" / "o five". It returns the minutes and the words read.
func minutesAt(ws []cword, i int) (m, n int) {
	w := wordAt(ws, i)
	switch {
	case w == "":
		return 0, 0
	case isDigits(w):
		if len(w) != 2 {
			return 0, 0
		}
		v, _ := strconv.Atoi(w)
		if v > 59 {
			return 0, 0
		}
		return v, 1
	case w == "oh" || w == "o":
		if ws[i].punct != 0 {
			return 0, 0
		}
		if v, ok := unitNumbers[wordAt(ws, i+1)]; ok && v >= 1 && v <= 9 {
			return v, 2
		}
		return 0, 0
	}
	v, k := cardinalAt(ws, i)
	if k == 0 || v < 10 || v > 59 {
		return 0, 0 // "nine five" is no clock; "nine oh five" is
	}
	return v, k
}
