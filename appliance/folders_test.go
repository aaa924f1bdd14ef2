package appliance

import "testing"

func TestFolderCategory(t *testing.T) {
	for _, tc := range []struct {
		in   Category
		want string
	}{
		{"work", "work"}, {"business", "work"}, {"legal", "work"}, {"romantic", "personal"}, {"sports", "health"},
		{"psychology", "education"}, {"economics", "finance"}, {"design", "technology"}, {"music", "entertainment"},
		{"travel", "travel"}, {"politics", "other"}, {"weather", "other"}, {"other", "other"}, {"nonsense", "other"},
	} {
		if got := FolderCategory(tc.in); got != tc.want {
			t.Errorf("FolderCategory(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Every category lands in one of the default folders.
	mappings := map[string]bool{}
	for _, d := range DefaultFolders {
		mappings[d.CategoryMapping] = true
	}
	for _, c := range Categories {
		if !mappings[FolderCategory(c)] {
			t.Errorf("%q is filed in %q, which is no default folder", c, FolderCategory(c))
		}
	}
}
