package main

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// ownerVoices gives live sessions the owner's voice from the speech
// profiles (a user without one gets a nil matcher, not a nil pointer
// inside an interface).
type ownerVoices struct{ profiles *speaker.Profiles }

func (v ownerVoices) OwnerMatcher(ctx context.Context, userID string) (listen.OwnerMatcher, error) {
	o, err := v.profiles.Owner(ctx, userID)
	if o == nil || err != nil {
		return nil, err
	}
	return o, nil
}
