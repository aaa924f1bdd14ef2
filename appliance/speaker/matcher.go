package speaker

import (
	"context"
	"fmt"

	"github.com/hearth-appliance/hearth/appliance"
)

// Owner matches speech against one user's speech profile.
type Owner struct {
	profile []float32
	ex      Extractor
}

// Owner returns a matcher for the user's voice, or nil when the user has
// no profile (or one made by another extractor, whose embeddings are not
// comparable with this one's).
func (p *Profiles) Owner(ctx context.Context, userID string) (*Owner, error) {
	prof, err := p.Store.SpeechProfile(ctx, userID)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load speech profile: %w", err)
	}
	if prof.Extractor != p.Extractor.Name() {
		return nil, nil
	}
	return &Owner{profile: prof.Embedding, ex: p.Extractor}, nil
}

// IsOwner embeds pcm (16 kHz mono speech) and reports whether it is the
// owner's voice, with the distance it measured.
func (o *Owner) IsOwner(ctx context.Context, pcm []int16) (bool, float64, error) {
	e, err := o.ex.Embed(ctx, pcm)
	if err != nil {
		return false, 0, err
	}
	d := Distance(o.profile, e)
	return d < o.ex.Threshold(), d, nil
}
