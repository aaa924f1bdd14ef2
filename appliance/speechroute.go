package appliance

// RouteStatus is one speech route as the owner's console shows it: on, or
// why not (not built in, no model, no key).
type RouteStatus struct {
	Name string `json:"name"`
	On   bool   `json:"on"`
	Why  string `json:"why,omitempty"`
	// Remote routes send audio out of the house.
	Remote bool `json:"remote"`
	// Model is the model the route runs, when it says (whisper's file).
	Model string `json:"model,omitempty"`
}

// SpeechSettings are the speech settings the owner may change from the
// console; a change applies to the next session, without a restart.
type SpeechSettings struct {
	// Order is every route the appliance knows, in the order in effect.
	Order []string `json:"order"`
	// OrderFixedBy names the flag that fixes the order, when one was
	// given: a flag wins over the console.
	OrderFixedBy string `json:"order_fixed_by,omitempty"`
	// WhisperModel is the model the owner chose for the whisper route;
	// empty is the best one pulled.
	WhisperModel        string `json:"whisper_model"`
	WhisperModelFixedBy string `json:"whisper_model_fixed_by,omitempty"`
}
