package punctuate

import (
	"math"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// fuzzWords turns fuzz input into a batch: words separated by "|", each
// gap taken from the pause bytes in turn (0–0.5 s in steps of 2 ms).
func fuzzWords(s string, pauses []byte) []stt.Word {
	var ws []stt.Word
	t := 0.0
	for i, f := range strings.Split(s, "|") {
		gap := 0.0
		if len(pauses) > 0 {
			gap = float64(pauses[i%len(pauses)]) * 0.002
		}
		t += gap
		ws = append(ws, stt.Word{Text: f, Start: t, End: t + 0.2, Speaker: i % 3})
		t += 0.2
	}
	return ws
}

// FuzzPunctuate: never panics, never loses or reorders a word (blank words
// aside), never changes timings, and a second pass changes nothing.
func FuzzPunctuate(f *testing.F) {
	f.Add("good|morning|maria|how|are|you", []byte{10, 10, 160, 5})
	f.Add("when|i|get|home|i'll|call", []byte{0})
	f.Add("Already|Formatted.", []byte{200})
	f.Add("| |\t|what|", []byte{150, 150})
	f.Add("ıstanbul|ǆungla|ß|i’m", []byte{130})
	f.Add("\xff|the|\xc0", []byte{200})
	f.Fuzz(func(t *testing.T, s string, pauses []byte) {
		in := fuzzWords(s, pauses)
		if len(pauses) > 3 {
			in[0].End = math.NaN() // a broken timing must not panic either
		}
		orig := append([]stt.Word(nil), in...)
		got := Punctuate(in)
		for i := range in {
			if in[i].Text != orig[i].Text {
				t.Fatalf("input word %d modified: %q → %q", i, orig[i].Text, in[i].Text)
			}
		}
		if formatted(orig) {
			if len(got) != len(orig) || len(got) > 0 && &got[0] != &in[0] {
				t.Fatalf("formatted batch %q changed to %q", text(orig), text(got))
			}
		} else {
			var kept []stt.Word
			for _, w := range orig {
				if strings.TrimSpace(w.Text) != "" {
					kept = append(kept, w)
				}
			}
			if len(got) != len(kept) {
				t.Fatalf("%d words in, %d out: %q → %q", len(kept), len(got), text(orig), text(got))
			}
			for i, w := range got {
				k := kept[i]
				if w.Start != k.Start && !(math.IsNaN(w.Start) && math.IsNaN(k.Start)) ||
					w.End != k.End && !(math.IsNaN(w.End) && math.IsNaN(k.End)) || w.Speaker != k.Speaker {
					t.Fatalf("word %d retimed: %+v, was %+v", i, w, k)
				}
				if !sameWord(strings.TrimSpace(k.Text), w.Text) {
					t.Fatalf("word %d: %q became %q", i, k.Text, w.Text)
				}
			}
			if n := len(got); n > 0 && !strings.HasSuffix(got[n-1].Text, ".") && !strings.HasSuffix(got[n-1].Text, "?") {
				t.Fatalf("last word %q ends no sentence", got[n-1].Text)
			}
		}
		again := Punctuate(got)
		if len(again) != len(got) {
			t.Fatalf("second pass: %q → %q", text(got), text(again))
		}
		for i := range got {
			if again[i].Text != got[i].Text {
				t.Fatalf("second pass: %q → %q", text(got), text(again))
			}
		}
	})
}

// sameWord: out is in, perhaps with its first letter in upper case and a
// full stop or question mark after it.
func sameWord(in, out string) bool {
	if out != in {
		out = strings.TrimSuffix(strings.TrimSuffix(out, "."), "?")
	}
	if out == in {
		return true
	}
	r, n := utf8.DecodeRuneInString(in)
	return out == string(unicode.ToUpper(r))+in[n:]
}
