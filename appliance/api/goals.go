package api

import (
	"math"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
)

// GET /v1/dev/user/goals
func (s *Server) listGoals(c echo.Context) error {
	limit, err := queryInt(c, "limit", 10)
	if err != nil {
		return err
	}
	inactive, err := queryBool(c, "include_inactive", false)
	if err != nil {
		return err
	}
	goals, err := s.store.Goals(c.Request().Context(), userID(c), inactive, min(max(limit, 1), 100))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, goals)
}

// GET /v1/dev/user/goals/{id}
func (s *Server) getGoal(c echo.Context) error {
	g, err := s.store.Goal(c.Request().Context(), userID(c), c.Param("id"))
	if err != nil {
		return notFoundAs(err, "Goal not found")
	}
	return c.JSON(http.StatusOK, g)
}

// POST /v1/dev/user/goals: at most three goals stay active.
func (s *Server) createGoal(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	g := &appliance.Goal{GoalType: "scale", IsActive: true}
	g.Title, _ = f.boundedStr("title", true, records.MaxText)
	if t, ok := f.enum("goal_type", appliance.GoalTypes); ok {
		g.GoalType = t
	}
	g.TargetValue, _ = f.float("target_value", true)
	g.MinValue, g.MaxValue = appliance.DefaultGoalRange(g.GoalType, g.TargetValue)
	if x, ok := f.float("current_value", false); ok {
		g.CurrentValue = x
	}
	if x, ok := f.float("min_value", false); ok {
		g.MinValue = x
	}
	if x, ok := f.float("max_value", false); ok {
		g.MaxValue = x
	}
	if u, ok := f.str("unit", false); ok {
		g.Unit = &u
	}
	if err := v.Err(); err != nil {
		return err
	}
	if g.Check(v, "body"); v.Err() != nil {
		return v.Err()
	}
	if err := s.records.CreateGoal(c.Request().Context(), userID(c), g); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

// PATCH /v1/dev/user/goals/{id}
func (s *Server) patchGoal(c echo.Context) error {
	m, err := readJSONObject(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	v := &appliance.ValidationError{}
	f := newFields(m, v, "body")
	title, hasTitle := f.boundedStr("title", false, records.MaxText)
	nums := map[string]*float64{}
	for _, name := range []string{"target_value", "current_value", "min_value", "max_value"} {
		if x, ok := f.float(name, false); ok {
			nums[name] = &x
		}
	}
	unit, hasUnit := f.str("unit", false)
	if err := v.Err(); err != nil {
		return err
	}
	if !hasTitle && !hasUnit && len(nums) == 0 {
		return errUnprocessable("value_error", "At least one field must be provided", "body")
	}
	return s.updateGoal(c, func(g *appliance.Goal) error {
		if hasTitle {
			g.Title = title
		}
		if hasUnit {
			g.Unit = &unit
		}
		for name, dst := range map[string]*float64{"target_value": &g.TargetValue, "current_value": &g.CurrentValue,
			"min_value": &g.MinValue, "max_value": &g.MaxValue} {
			if x := nums[name]; x != nil {
				*dst = *x
			}
		}
		// A raised target carries the range with it unless the request sets the
		// range itself: "run 20 km" on a goal that was "run 10 km".
		if nums["target_value"] != nil && nums["max_value"] == nil && g.GoalType != "boolean" && g.TargetValue > g.MaxValue {
			g.MaxValue = g.TargetValue
		}
		g.Check(v, "body")
		return v.Err()
	})
}

// PATCH /v1/dev/user/goals/{id}/progress?current_value=X
func (s *Server) goalProgress(c echo.Context) error {
	raw := c.QueryParam("current_value")
	if raw == "" {
		return errUnprocessable("missing", "Field required", "query", "current_value")
	}
	x, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return errUnprocessable("float_parsing", "Input should be a valid number, unable to parse string as a number", "query", "current_value")
	}
	// ParseFloat reads "Inf" and "NaN"; neither is a value JSON can carry back.
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return errUnprocessable("finite_number", "Input should be a finite number", "query", "current_value")
	}
	return s.updateGoal(c, func(g *appliance.Goal) error {
		g.CurrentValue = x
		v := &appliance.ValidationError{}
		g.Check(v, "query")
		return v.Err()
	})
}

// updateGoal changes the goal the path names and answers with it.
func (s *Server) updateGoal(c echo.Context, change func(*appliance.Goal) error) error {
	g, err := s.records.UpdateGoal(c.Request().Context(), userID(c), c.Param("id"), change)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

// GET /v1/dev/user/goals/{id}/history?days=30 (at most 365)
func (s *Server) goalHistory(c echo.Context) error {
	days, err := queryInt(c, "days", 30)
	if err != nil {
		return err
	}
	if days > 365 {
		return errUnprocessable("less_than_equal", "Input should be less than or equal to 365", "query", "days")
	}
	h, err := s.store.GoalHistory(c.Request().Context(), userID(c), c.Param("id"), s.now().AddDate(0, 0, -max(days, 0)))
	if err != nil {
		return notFoundAs(err, "Goal not found")
	}
	return c.JSON(http.StatusOK, h)
}

// DELETE /v1/dev/user/goals/{id}
func (s *Server) deleteGoal(c echo.Context) error {
	if err := s.records.DeleteGoal(c.Request().Context(), userID(c), c.Param("id")); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"success": true})
}

// notFoundAs gives a store's not-found the endpoint's wording.
func notFoundAs(err error, msg string) error {
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return errNotFound(msg)
	}
	return err
}
