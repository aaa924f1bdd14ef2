package lexicon

import "testing"

func TestStem(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"budget", "budget"},
		{"budgets", "budget"},
		{"budgeting", "budget"},
		{"budgeted", "budget"},
		{"reviewing", "review"},
		{"quarterly", "quarter"},
		{"make", "mak"},
		{"making", "mak"},
		{"studies", "studi"},
		{"study", "studi"},
		{"studied", "studi"},
		{"planned", "plan"},
		{"running", "run"},
		{"agreed", "agree"},
		{"need", "need"},
		{"speed", "speed"},
		{"string", "string"},
		{"bring", "bring"},
		{"boxes", "box"},
		{"classes", "class"},
		{"family", "famili"},
		{"families", "famili"},
		{"tomatoes", "tomato"},
		{"bus", "bus"},
		{"analysis", "analysis"},
		{"cafés", "café"},
		{"日本", "日本"},
		{"go", "go"},
		{"parties", "parti"},
		{"party", "parti"},
		{"churches", "church"},
		{"hiring", "hir"},
		{"weekly", "week"},
		{"is", "is"},
	}
	for _, tt := range tests {
		if got := Stem(tt.in); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := string(AppendStem([]byte("x"), []byte(tt.in))); got != "x"+tt.want {
			t.Errorf("AppendStem(x, %q) = %q, want %q", tt.in, got, "x"+tt.want)
		}
	}
}
