//go:build !((libavcodec || libavformat) && cgo)

package audio

import "log/slog"

// SetLibavLogger does nothing in a build without libav.
func SetLibavLogger(*slog.Logger) {}
