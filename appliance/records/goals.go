package records

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"github.com/hearth-appliance/hearth/appliance"
)

// CreateGoal adds g, which the surface built and checked (its field errors
// carry the surface's locations), giving it its id, owner and times.
func (s *Service) CreateGoal(ctx context.Context, userID string, g *appliance.Goal) error {
	if _, err := text("Title", g.Title, MaxText); err != nil {
		return err
	}
	now := s.clock()
	g.ID, g.UserID, g.CreatedAt, g.UpdatedAt = goalID(), userID, now, now
	return s.store.CreateGoal(ctx, g)
}

// UpdateGoal loads a goal (ENOTFOUND "Goal not found"), lets change apply
// and check the surface's fields, and saves it.
func (s *Service) UpdateGoal(ctx context.Context, userID, id string, change func(*appliance.Goal) error) (*appliance.Goal, error) {
	g, err := s.store.Goal(ctx, userID, id)
	if err != nil {
		return nil, notFound(err, "Goal not found")
	}
	if err := change(g); err != nil {
		return nil, err
	}
	if _, err := text("Title", g.Title, MaxText); err != nil {
		return nil, err
	}
	g.UpdatedAt = s.clock()
	if err := s.store.UpdateGoal(ctx, g); err != nil {
		return nil, notFound(err, "Goal not found")
	}
	return g, nil
}

// DeleteGoal deletes a goal.
func (s *Service) DeleteGoal(ctx context.Context, userID, id string) error {
	return notFound(s.store.DeleteGoal(ctx, userID, id), "Goal not found")
}

// goalID follows the reference's form: goal_ and 12 hex characters.
func goalID() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "goal_" + hex.EncodeToString(b)
}
