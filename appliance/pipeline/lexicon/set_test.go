package lexicon

import (
	"slices"
	"strings"
	"sync"
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
		var want []string
		for _, l := range lists {
			want = append(want, strings.Fields(l)...)
		}
		slices.Sort(want)
		want = slices.Compact(want)
		s := NewSet(lists...)
		if got := slices.Sorted(s.All()); !slices.Equal(got, want) {
			t.Errorf("NewSet(%q) = %v, want %v", lists, got, want)
		}
		if s.Len() != len(want) {
			t.Errorf("NewSet(%q).Len() = %d, want %d", lists, s.Len(), len(want))
		}
		for _, w := range want {
			if !s.Has(w) || !s.HasBytes([]byte(w)) {
				t.Errorf("NewSet(%q) lacks %q", lists, w)
			}
		}
		if s.Has("absent") || s.HasBytes([]byte("absent")) {
			t.Errorf("NewSet(%q) has a word not in its lists", lists)
		}
	}
}

func TestUnion_HasEveryWordOnce(t *testing.T) {
	u := Union(NewSet("a b"), NewSet("b c"), Set{})
	if got := slices.Sorted(u.All()); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Union = %v, want [a b c]", got)
	}
	if u.Len() != 3 {
		t.Errorf("Union.Len() = %d, want 3", u.Len())
	}
}

func TestBuild_HasWhatFillAdds(t *testing.T) {
	calls := 0
	s := Build(func(add func(string)) {
		calls++
		add("one")
		add("two")
		add("one")
	})
	if calls != 0 {
		t.Errorf("Build called fill %d times before a lookup, want 0", calls)
	}
	if got := slices.Sorted(s.All()); !slices.Equal(got, []string{"one", "two"}) {
		t.Errorf("Build = %v, want [one two]", got)
	}
	s.Has("one")
	if calls != 1 {
		t.Errorf("fill called %d times, want once", calls)
	}
}

func TestSet_ZeroIsEmpty(t *testing.T) {
	var s Set
	if s.Has("") || s.Len() != 0 || slices.Collect(s.All()) != nil {
		t.Error("the zero Set is not empty")
	}
}

// TestSet_FirstLookupsAtOnceAgree: sets are package variables the
// extractor's goroutines share, so the first lookups may come together;
// each sees the whole set and the lists are read once (go test -race
// checks the rest).
func TestSet_FirstLookupsAtOnceAgree(t *testing.T) {
	calls := 0
	s := Build(func(add func(string)) {
		calls++
		for _, w := range strings.Fields("a b c d e f g h") {
			add(w)
		}
	})
	var wg sync.WaitGroup
	lens := make([]int, 8)
	for i := range lens {
		wg.Go(func() {
			if s.Has("h") {
				lens[i] = s.Len()
			}
		})
	}
	wg.Wait()
	for i, n := range lens {
		if n != 8 {
			t.Errorf("goroutine %d saw %d words, want 8", i, n)
		}
	}
	if calls != 1 {
		t.Errorf("fill called %d times, want once", calls)
	}
}
