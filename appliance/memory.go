package appliance

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// MemoryCategoriesIn are the category spellings accepted on input: the
// three current ones and the reference's legacy ones.
var MemoryCategoriesIn = []string{"interesting", "system", "manual", "core", "hobbies", "lifestyle", "interests",
	"habits", "work", "skills", "learnings", "other", "auto", "workflow"}

// ValidMemoryCategory reports whether c is accepted on input.
func ValidMemoryCategory(c string) bool { return slices.Contains(MemoryCategoriesIn, c) }

// NormalizeMemoryCategory maps legacy categories as the reference does:
// most to system, learnings to interesting.
func NormalizeMemoryCategory(c string) string {
	switch c {
	case "core", "hobbies", "lifestyle", "interests", "habits", "work", "skills", "other", "auto":
		return MemorySystem
	case "learnings":
		return MemoryInteresting
	}
	return c
}

// GuessMemoryCategory stands in for the reference's LLM categoriser when a
// memory arrives without a category (or the server assigns it): statements
// about the user are system facts, anything else is interesting.
func GuessMemoryCategory(content string) string {
	for _, w := range strings.Fields(strings.ToLower(content)) {
		switch strings.Trim(w, ".,!?;:'\"()") {
		case "i", "i'm", "i've", "i'd", "i'll", "my", "me", "mine", "myself", "user", "user's":
			return MemorySystem
		}
	}
	return MemoryInteresting
}

// MemoryScoring is the reference's sort key "{manual 01|00}_{999-boost}_{epoch}":
// manual memories first, then interesting before system, newest first.
func MemoryScoring(m *Memory) string {
	manual := "00"
	if m.ManuallyAdded {
		manual = "01"
	}
	boost := 1
	switch m.Category {
	case MemorySystem, "habits", "other", "auto":
		boost = 0
	}
	return manual + "_" + strconv.Itoa(999-boost) + "_" + fmt10(m.CreatedAt)
}

func fmt10(t time.Time) string {
	s := strconv.FormatInt(t.Unix(), 10)
	return strings.Repeat("0", max(0, 10-len(s))) + s
}

// LockedPreview is how locked content shows where it may be listed: the
// first 70 characters and "...".
func LockedPreview(s string) string {
	r := []rune(s)
	if len(r) <= 70 {
		return s
	}
	return string(r[:70]) + "..."
}

// MemorySorts are the memory list orders, in the order they are named in
// error messages; "" means created_desc.
var MemorySorts = []string{"scoring_desc", "created_desc", "updated_desc", "manual_first"}

// ValidMemorySort reports whether s names a memory list order.
func ValidMemorySort(s string) bool { return s == "" || slices.Contains(MemorySorts, s) }
