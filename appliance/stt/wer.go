package stt

import (
	"strings"
	"unicode"
)

// WordErrors is the word-level edit distance between what was said and
// what was heard, after lowercasing and dropping punctuation, and the
// number of words said: their ratio is the word error rate the speech
// routes are measured by.
func WordErrors(said, heard string) (errs, words int) {
	a, b := normWords(said), normWords(heard)
	d := make([]int, len(b)+1)
	for j := range d {
		d[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := d[0]
		d[0] = i
		for j := 1; j <= len(b); j++ {
			cur := d[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[j] = min(d[j]+1, d[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return d[len(b)], len(a)
}

func normWords(s string) []string {
	return strings.Fields(strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'':
			return unicode.ToLower(r)
		default:
			return ' '
		}
	}, s))
}
