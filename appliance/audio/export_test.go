package audio

// NewPionOpus is the pure-Go Opus decoder, which builds without libopus
// use, for the tests that hold it to libopus in builds that have both.
var NewPionOpus = newPionOpus
