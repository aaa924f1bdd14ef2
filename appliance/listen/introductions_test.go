package listen

import "testing"

func TestIntroducedName(t *testing.T) {
	for text, want := range map[string]string{
		"Hi, I'm Bob, nice to meet you.":           "Bob",
		"my name is margaret and i live next door": "Margaret",
		"I am Priya from the school.":              "Priya",
		"I am going to the shop.":                  "",
		"I'm sure that works.":                     "",
		"i'm bob":                                  "", // lower case: too easily a verb
		"The name of the game is patience.":        "",
	} {
		if got := introducedName(text); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}
