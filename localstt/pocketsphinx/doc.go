// Package pocketsphinx is the speech route that works out of the box:
// English recognition with CMU PocketSphinx (Debian's libpocketsphinx and
// its en-us model), no download. It is the default English route until a
// whisper model is present. Audio is cut into utterances by an energy VAD;
// each utterance is decoded whole by one of a few shared decoders, so a
// decoder's ~40 MB of model is loaded a handful of times, not per session.
//
// The recognizer is compiled in with the build tag pocketsphinx (make
// build adds it when pkg-config finds the library); without it the route
// reports config_error with how to enable it.
package pocketsphinx
