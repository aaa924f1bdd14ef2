// Package models will be the catalog of ML model files (whisper, VAD,
// speaker embedding): names, sizes, checksums, where they live in the data
// folder, verification and pulling. The transcription issues build it.
package models
