package main

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/retranscribe"
	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// households gives live sessions their user's known voices from the speech
// profiles and the people's learnt voices (never a nil pointer inside a
// non-nil interface).
type households struct{ profiles *speaker.Profiles }

func (v households) Household(ctx context.Context, userID string) (listen.Household, error) {
	h, err := v.profiles.Household(ctx, userID)
	if h == nil || err != nil {
		return nil, err
	}
	return h, nil
}

// retranscribeVoices gives "transcribe again" jobs the same known voices.
type retranscribeVoices struct{ profiles *speaker.Profiles }

func (v retranscribeVoices) Household(ctx context.Context, userID string) (retranscribe.Household, error) {
	h, err := v.profiles.Household(ctx, userID)
	if h == nil || err != nil {
		return nil, err
	}
	return h, nil
}
