// Package localstt is the whisper.cpp speech route, built into the
// binary: a ggml model from the catalog (hearth models pull base.en)
// transcribes on the box's CPU. It is compiled in with the build tag
// whisper (make build adds it when libwhisper is found or built); without
// it the route says how to enable it. The PocketSphinx route lives in
// localstt/pocketsphinx, the shared VAD and live stream in appliance/stt/vad.
package localstt
