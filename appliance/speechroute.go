package appliance

// RouteStatus is one speech route as the owner's console shows it: on, or
// why not (not built in, no model, no key).
type RouteStatus struct {
	Name string `json:"name"`
	On   bool   `json:"on"`
	Why  string `json:"why,omitempty"`
	// Remote routes send audio out of the house.
	Remote bool `json:"remote"`
}
