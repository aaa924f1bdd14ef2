package embed

import (
	"slices"
	"testing"
)

func TestTokenize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, World!", []string{"hello", "world"}},
		{"I'll see my daughter's recital", []string{"i", "ll", "see", "my", "daughter", "s", "recital"}},
		{"Don’t stop; won't", []string{"dont", "stop", "wont"}},
		{"meet at 3pm, room 101", []string{"meet", "at", "3pm", "room", "101"}},
		{"follow-up e-mail", []string{"follow", "up", "e", "mail"}},
		{"ÉCOLE Straße", []string{"école", "straße"}},
		{"項目预算ok", []string{"項目预算", "ok"}},
		{"明日の会議", []string{"明日の会議"}},
		{"party🎉time", []string{"party", "🎉", "time"}},
		{"a\xffb", []string{"a", "b"}},
		{"'quoted'", []string{"quoted"}},
		{"", nil},
	}
	for _, tt := range tests {
		var s scratch
		s.reset(8)
		s.tokenize(tt.in)
		var got []string
		for _, tok := range s.toks {
			got = append(got, string(s.text[tok.start:tok.end]))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokenize_Breaks(t *testing.T) {
	t.Parallel()
	var s scratch
	s.reset(8)
	s.tokenize("budget. review budget")
	var brk []bool
	for _, tok := range s.toks {
		brk = append(brk, tok.brk)
	}
	if want := []bool{false, true, false}; !slices.Equal(brk, want) {
		t.Errorf("breaks = %v, want %v", brk, want)
	}
}
