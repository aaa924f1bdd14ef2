package builtin

// openingHours: "the store opens at nine tomorrow", "the pharmacy closes at
// 6 tonight" say when a place is open, not a plan.
func openingHours(ws []cword, a, b int) bool {
	for j := a + 1; j < b; j++ {
		switch ws[j].lower {
		case "opens", "closes", "shuts":
			return true
		}
	}
	return false
}
