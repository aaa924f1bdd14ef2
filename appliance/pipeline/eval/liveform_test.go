package eval

import "testing"

func TestLiveText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"At 9:30, on the 21st.", "at nine thirty on the twenty first"},
		{"Call me at 10:00 or 8am?", "call me at ten or eight am"},
		{"It's 10:05 on November 2nd, 2026!", "it's ten oh five on november second twenty twenty six"},
		{"The 30th; the 12th: the 3rd", "the thirtieth the twelfth the third"},
		{"A 2-week course for $1,500.", "a two week course for one thousand five hundred"},
		{"Maria's JLPT N5 exam", "maria's jlpt n5 exam"},
		{"At 8 a.m. or 2 p.m.", "at eight am or two pm"},
		{"Room 114 at 14:45", "room one hundred and fourteen at fourteen forty five"},
	} {
		if got := liveText(tt.in); got != tt.want {
			t.Errorf("liveText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
