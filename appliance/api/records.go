package api

import (
	"strings"

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

func newID() string { return appliance.NewID() }
