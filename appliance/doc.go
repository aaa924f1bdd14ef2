// Package appliance is Hearth's domain: the types that travel on the wire
// (conversations, transcript segments, structure, memories, keys), the error
// type every layer returns, the one Config, and the interfaces the domain
// consumes (Store, Extractor). It imports no other Hearth package and, of the
// outside world, only the standard library and github.com/google/uuid (for
// NewID); adapters (store, appliance/api, appliance/pipeline, localstt, ...)
// import it.
package appliance
