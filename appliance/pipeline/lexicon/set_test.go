package lexicon

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestNewSet_SplitsListsOnWhitespaceAsStringsFields(t *testing.T) {
	for _, lists := range [][]string{
		{},
		{""},
		{"   \n\t "},
		{"a"},
		{"call email e-mail text", "  send\tbuy\n pick\r\nreturn\v\fbook  "},
		{"dup dup dup", "dup", "café naïve"},
		{"\n\tabove below further nor once ought", "i'm you'll"},
	} {
		want := Set{}
		for _, l := range lists {
			for _, w := range strings.Fields(l) {
				want[w] = struct{}{}
			}
		}
		got := NewSet(lists...)
		if !maps.Equal(got, want) {
			t.Errorf("NewSet(%q) = %v, want %v", lists, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	}
}

func TestUnion_HasEveryWordOnce(t *testing.T) {
	u := Union(NewSet("a b"), NewSet("b c"), Set{})
	if got := slices.Sorted(maps.Keys(u)); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Union = %v, want [a b c]", got)
	}
}
