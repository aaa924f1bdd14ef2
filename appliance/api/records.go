package api

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
)

// boundedStr reads an optional string field, trimmed, of 1..maxLen runes,
// recording the reference's (pydantic's) errors.
func (f fields) boundedStr(name string, required bool, maxLen int) (string, bool) {
	s, ok := f.str(name, required)
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	switch n := len([]rune(s)); {
	case n < 1:
		f.fail(name, "string_too_short", "String should have at least 1 character")
		return "", false
	case n > maxLen:
		f.fail(name, "string_too_long", "String should have at most "+itoa(maxLen)+" characters")
		return "", false
	}
	return s, true
}

// stringList reads an optional list of strings.
func (f fields) stringList(name string) ([]string, bool) {
	l, ok := f.list(name, false)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for i, v := range l {
		s, isStr := v.(string)
		if !isStr {
			f.v.Add("string_type", "Input should be a valid string", append(f.at(name), i)...)
			continue
		}
		out = append(out, s)
	}
	return out, true
}

// objectList reads a required list of objects of at most maxLen items and
// returns a fields walker for each.
func (f fields) objectList(name string, maxLen int) []fields {
	l, ok := f.list(name, true)
	if !ok {
		return nil
	}
	if len(l) > maxLen {
		f.fail(name, "too_long", "List should have at most "+itoa(maxLen)+" items after validation, not "+itoa(len(l)))
		return nil
	}
	out := make([]fields, 0, len(l))
	for i, raw := range l {
		m, isObj := raw.(map[string]any)
		if !isObj {
			f.v.Add("model_type", "Input should be a valid dictionary or object", append(f.at(name), i)...)
			continue
		}
		out = append(out, newFields(m, f.v, append(f.at(name), i)...))
	}
	return out
}

// Memory categories accepted on input; legacy ones are stored as system.
var (
	memoryCategoriesIn = []string{"interesting", "system", "manual", "core", "hobbies", "lifestyle", "interests",
		"habits", "work", "skills", "learnings", "other", "auto", "workflow"}
	legacyMemoryCategories = map[string]bool{"core": true, "hobbies": true, "lifestyle": true, "interests": true,
		"habits": true, "work": true, "skills": true, "other": true, "auto": true}
)

func normalizeMemoryCategory(c string) string {
	if legacyMemoryCategories[c] {
		return appliance.MemorySystem
	}
	if c == "learnings" {
		return appliance.MemoryInteresting
	}
	return c
}

// guessMemoryCategory stands in for the reference's LLM categoriser when a
// client leaves the category out: statements about the user are system
// facts, anything else is interesting.
func guessMemoryCategory(content string) string {
	for _, w := range strings.Fields(strings.ToLower(content)) {
		switch strings.Trim(w, ".,!?;:'\"") {
		case "i", "i'm", "i've", "my", "me", "mine", "user", "user's":
			return appliance.MemorySystem
		}
	}
	return appliance.MemoryInteresting
}

// memoryScoring is the reference's sort key: manual flag, category boost,
// creation time.
func memoryScoring(m *appliance.Memory) string {
	manual := "00"
	if m.ManuallyAdded {
		manual = "01"
	}
	boost := 1
	switch m.Category {
	case appliance.MemorySystem, "habits", "other", "auto":
		boost = 0
	}
	return manual + "_" + itoa(999-boost) + "_" + padEpoch(m.CreatedAt)
}

func padEpoch(t time.Time) string {
	s := itoa(int(t.Unix()))
	return strings.Repeat("0", max(0, 10-len(s))) + s
}

// lockedPreview is how locked content shows in lists: 70 characters and "...".
func lockedPreview(s string) string {
	r := []rune(s)
	if len(r) <= 70 {
		return s
	}
	return string(r[:70]) + "..."
}

func newID() string { return uuid.NewString() }
