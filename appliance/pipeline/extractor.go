package pipeline

import "github.com/hearth-appliance/hearth/appliance/pipeline/builtin"

// NewBuiltin returns the offline extractor Hearth uses when no language
// model is configured: the heuristics of appliance/pipeline/builtin.
func NewBuiltin() *builtin.Builtin { return builtin.New() }
