// Package models is the catalog of model files the appliance can use
// (whisper.cpp's ggml models): their names, sizes, checksums and upstream
// addresses, where they live in the data folder (DATA/models), and pulling
// them with a resumable download that is verified before it is used.
package models
