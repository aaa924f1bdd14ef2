package records

import (
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
)

// Limits of the records, in characters (runes) after trimming. The
// surfaces validate their input against these same constants first, to
// answer in their own wire shape (a 422 field error, a JSON-RPC -32602);
// the service checks again, so no surface can write past them.
const (
	// MaxText bounds a memory's content, an action item's description, a
	// goal's title and a conversation's title.
	MaxText = 500
	// MaxName bounds a folder's and a person's name.
	MaxName = 100
)

// ErrNothingToChange is an update that names no field. Each surface words
// it its own way (errors.Is).
var ErrNothingToChange = appliance.Errorf(appliance.EINVALID, "At least one field must be provided")

// ErrVisibility is a memory visibility other than public or private.
var ErrVisibility = appliance.Errorf(appliance.EINVALID, "visibility must be 'public' or 'private'")

// text trims s and checks it holds 1..max characters; what names the field
// in the error ("Content", "Description").
func text(what, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	switch n := len([]rune(s)); {
	case n == 0:
		return "", appliance.Errorf(appliance.EINVALID, "%s is required", what)
	case n > max:
		return "", appliance.Errorf(appliance.EINVALID, "%s must be at most %d characters", strings.ToLower(what), max)
	}
	return s, nil
}
