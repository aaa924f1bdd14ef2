package records

import (
	"context"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// RenamePerson names a speaker. A running session reads the known voices
// again at each identification, so it sees the change at once.
func (s *Service) RenamePerson(ctx context.Context, userID, id, name string) (*appliance.Person, error) {
	if n := len([]rune(strings.TrimSpace(name))); n < 1 || n > MaxName {
		return nil, appliance.Errorf(appliance.EINVALID, "A name has 1 to %d characters", MaxName)
	}
	return s.store.RenamePerson(ctx, userID, id, name)
}

// MergePeople makes fromID's segments and voice intoID's; fromID is gone.
func (s *Service) MergePeople(ctx context.Context, userID, fromID, intoID string) error {
	if fromID == intoID {
		return appliance.Errorf(appliance.EINVALID, "A person cannot be merged into themself")
	}
	return s.store.MergePeople(ctx, userID, fromID, intoID)
}

// DeletePerson deletes a person; their segments keep their text, unnamed.
func (s *Service) DeletePerson(ctx context.Context, userID, id string) error {
	return s.store.DeletePerson(ctx, userID, id)
}
