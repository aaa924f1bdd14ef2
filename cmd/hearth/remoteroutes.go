package main

import (
	"flag"
	"strings"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/deepgram"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/openaistt"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/soniox"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/speechmatics"
)

// remoteVendor is a speech route that sends audio out of the house: its
// flags, the key the owner may save in the console instead of a flag, and
// how to build it. The flags, the console's provider keys, the remote
// routes and their default order all come from remoteVendors.
type remoteVendor struct {
	// name is the route's in --stt-routes and the status, and its
	// provider key's in the console.
	name  string
	key   stringFlag   // the API key: a saved provider key fills it
	flags []stringFlag // its other settings
	// build returns the route, or why it is off (not configured).
	build func(cfg appliance.Config, d routeDeps) (route any, unavailable string, err error)
}

// stringFlag is one string setting of appliance.Config.
type stringFlag struct {
	name, usage string
	field       func(*appliance.Config) *string
}

// remoteVendors are the remote routes, in their default order.
var remoteVendors = []remoteVendor{
	{name: deepgram.Name,
		key: stringFlag{"deepgram-api-key", "a Deepgram API key turns the Deepgram route on (audio leaves the box for it; prefer the environment twin)",
			func(c *appliance.Config) *string { return &c.DeepgramAPIKey }},
		flags: []stringFlag{
			{"deepgram-url", "Deepgram's address (default https://api.deepgram.com; a self-hosted Deepgram's otherwise)",
				func(c *appliance.Config) *string { return &c.DeepgramURL }},
		},
		build: buildDeepgram},
	{name: soniox.Name,
		key: stringFlag{"soniox-api-key", "a Soniox API key turns the Soniox route on (audio leaves the box for it; prefer the environment twin)",
			func(c *appliance.Config) *string { return &c.SonioxAPIKey }},
		flags: []stringFlag{
			{"soniox-url", "Soniox's real-time address (default wss://stt-rt.soniox.com/transcribe-websocket)",
				func(c *appliance.Config) *string { return &c.SonioxURL }},
		},
		build: buildSoniox},
	{name: speechmatics.Name,
		key: stringFlag{"speechmatics-api-key", "a Speechmatics API key turns the Speechmatics route on (audio leaves the box for it; prefer the environment twin)",
			func(c *appliance.Config) *string { return &c.SpeechmaticsAPIKey }},
		flags: []stringFlag{
			{"speechmatics-url", "Speechmatics' real-time address (default wss://eu2.rt.speechmatics.com/v2; another region's otherwise)",
				func(c *appliance.Config) *string { return &c.SpeechmaticsURL }},
			{"speechmatics-operating-point", "Speechmatics model: standard or enhanced (default enhanced)",
				func(c *appliance.Config) *string { return &c.SpeechmaticsOperatingPoint }},
		},
		build: buildSpeechmatics},
	{name: openaistt.Name,
		key: stringFlag{"openai-stt-api-key", "API key for that server (prefer the environment twin)",
			func(c *appliance.Config) *string { return &c.OpenAISTTAPIKey }},
		flags: []stringFlag{
			{"openai-stt-url", "an OpenAI-compatible transcription server, e.g. http://gpu-box.lan:8000/v1 (audio leaves the box for it)",
				func(c *appliance.Config) *string { return &c.OpenAISTTURL }},
			{"openai-stt-model", "the model name on that server (default whisper-1)",
				func(c *appliance.Config) *string { return &c.OpenAISTTModel }},
		},
		build: buildOpenAI},
}

// settings are the vendor's key and flags: a key saved or removed in the
// console rebuilds its route.
func (v remoteVendor) settings(cfg appliance.Config) string {
	var b strings.Builder
	for _, f := range append([]stringFlag{v.key}, v.flags...) {
		b.WriteString(*f.field(&cfg))
		b.WriteByte(0)
	}
	return b.String()
}

// remoteVendorFlags registers every remote vendor's flags.
func remoteVendorFlags(fs *flag.FlagSet, cfg *appliance.Config) {
	for _, v := range remoteVendors {
		for _, f := range append([]stringFlag{v.key}, v.flags...) {
			p := f.field(cfg)
			fs.StringVar(p, f.name, *p, f.usage)
		}
	}
}

// remoteVendorRoutes are the remote vendors as speech routes.
func remoteVendorRoutes() []speechRoute {
	var out []speechRoute
	for _, v := range remoteVendors {
		out = append(out, speechRoute{name: v.name, build: v.build, settings: v.settings})
	}
	return out
}

// isRemoteRoute reports whether the route sends audio out of the house.
func isRemoteRoute(name string) bool {
	for _, v := range remoteVendors {
		if v.name == name {
			return true
		}
	}
	return false
}

// providerKeyNames are the console's provider keys, in the table's order.
func providerKeyNames() []string {
	var out []string
	for _, v := range remoteVendors {
		out = append(out, v.name)
	}
	return out
}
