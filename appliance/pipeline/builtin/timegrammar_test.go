package builtin

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"
)

// TestTimeGrammarTable resolves every phrase of testdata/timegrammar
// (clock times, dates, ranges and offsets, in digits and words, written and
// as recognisers give them) against its conversation start, and checks the
// instant it names.
func TestTimeGrammarTable(t *testing.T) {
	t.Parallel()
	starts := map[string]time.Time{
		"F": time.Date(2026, 11, 27, 8, 0, 0, 0, mustZone(t, "America/New_York")),
		"W": time.Date(2026, 11, 25, 15, 0, 0, 0, mustZone(t, "Europe/London")),
		"T": time.Date(2026, 3, 10, 10, 0, 0, 0, mustZone(t, "America/New_York")),
		"S": time.Date(2026, 11, 29, 20, 0, 0, 0, mustZone(t, "America/Los_Angeles")), // a Sunday
	}
	f, err := os.Open("testdata/timegrammar/phrases.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		start, ok := starts[cols[0]]
		if len(cols) != 3 || !ok {
			t.Fatalf("line %d: %q: want start, phrase and instant separated by tabs", line, text)
		}
		n++
		phrase, want := cols[1], cols[2]
		loc := start.Location()
		got, ok := resolveText(phrase, start, loc)
		switch {
		case want == "-" && ok:
			t.Errorf("line %d: %s %q = %s, want no time", line, cols[0], phrase, got.at.In(loc).Format("2006-01-02 15:04"))
		case want != "-" && !ok:
			t.Errorf("line %d: %s %q: no time, want %s", line, cols[0], phrase, want)
		case want != "-" && got.at.In(loc).Format("2006-01-02 15:04") != want:
			t.Errorf("line %d: %s %q = %s, want %s", line, cols[0], phrase, got.at.In(loc).Format("2006-01-02 15:04"), want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 300 {
		t.Errorf("%d phrases, want at least 300", n)
	}
}
