package mcp

import (
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/view"
)

// The tests read results in the wire shapes, by their short names.
type (
	Memory              = view.Memory
	ConversationSummary = view.ConversationSummary
	ConversationDetail  = view.ConversationDetail
	ActionItem          = view.ActionItem
	Person              = view.Person
	Profile             = records.Profile
	NoProfile           = records.NoProfile
)
