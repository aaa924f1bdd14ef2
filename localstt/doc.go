// Package localstt will hold the bundled whisper.cpp speech-to-text route
// (cgo), its streaming policy and VAD, implementing the appliance's STT
// provider interface. The live-transcription issue builds it; until then the
// appliance transcribes nothing locally and says so.
package localstt
