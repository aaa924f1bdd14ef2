package appliance

// Locked items are hidden from assistants and integrations. The reference
// answers them with 402 "A paid plan is required…"; clients key on the
// status (402, and -32002 over MCP), so it stays, but an appliance has no
// plans: the message says what is true and how to undo it.

// LockedError is the refusal of a locked item of the kind named
// ("conversation", "memory", "action item").
func LockedError(kind string) error {
	where := ""
	switch kind {
	case "conversation":
		where = " Its owner can unlock it on the console's search page or with PUT /v1/dev/user/conversations/{id}/locked {\"locked\": false}."
	case "memory":
		where = " Its owner can unlock it on the console's search page or with PUT /v1/dev/user/memories/{id}/locked {\"locked\": false}."
	case "action item":
		return Errorf(ELOCKED, "This action item is locked: it belongs to a conversation its owner has hidden from assistants and integrations. "+
			"Its owner can unlock the conversation on the console's search page or with PUT /v1/dev/user/conversations/{id}/locked {\"locked\": false}.")
	}
	return Errorf(ELOCKED, "This %s is locked: its owner has hidden it from assistants and integrations.%s", kind, where)
}
