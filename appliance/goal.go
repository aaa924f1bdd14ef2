package appliance

import "fmt"

// DefaultGoalRange is a goal type's range when the request names none: a
// boolean goal runs from 0 (not done) to 1 (done), a scale from 0 to 10 (or
// to its target, when that is higher), and a numeric goal from 0 to its
// target.
func DefaultGoalRange(goalType string, target float64) (lo, hi float64) {
	switch goalType {
	case "boolean":
		return 0, 1
	case "numeric":
		return 0, max(target, 0)
	}
	return 0, max(10, target)
}

// Check validates a goal's numbers: min ≤ max, and the target and the
// current value within [min, max]. Failures are reported at loc + field.
func (g *Goal) Check(v *ValidationError, loc ...any) {
	at := func(field string) []any { return append(append([]any{}, loc...), field) }
	if g.MinValue > g.MaxValue {
		v.Add("value_error", fmt.Sprintf("min_value (%g) must not exceed max_value (%g)", g.MinValue, g.MaxValue), at("min_value")...)
		return
	}
	if g.TargetValue < g.MinValue || g.TargetValue > g.MaxValue {
		v.Add("value_error", fmt.Sprintf("target_value must be between min_value (%g) and max_value (%g)", g.MinValue, g.MaxValue), at("target_value")...)
	}
	if g.CurrentValue < g.MinValue || g.CurrentValue > g.MaxValue {
		v.Add("value_error", fmt.Sprintf("current_value must be between min_value (%g) and max_value (%g)", g.MinValue, g.MaxValue), at("current_value")...)
	}
}
