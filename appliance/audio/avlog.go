//go:build (libavcodec || libavformat) && cgo

package audio

// #include <stdlib.h>
import "C"

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// libav's messages (a corrupt AAC frame makes one per frame) go to the
// appliance's log at debug, at most avLogBurst a second; the rest are
// counted and the count is logged with the next message let through.
const avLogBurst = 20

var avLog = struct {
	logger atomic.Pointer[slog.Logger]
	mu     sync.Mutex
	second time.Time
	sent   int
	missed int
}{}

// SetLibavLogger names the logger libavcodec's and libavformat's messages
// go to (slog.Default until set). libav's log callback is process-wide, so
// this is too.
func SetLibavLogger(l *slog.Logger) { avLog.logger.Store(l) }

//export hearthAVLog
func hearthAVLog(level C.int, line *C.char) {
	msg := strings.TrimSpace(C.GoString(line))
	if msg == "" {
		return
	}
	now := time.Now()
	avLog.mu.Lock()
	if now.Sub(avLog.second) >= time.Second {
		avLog.second, avLog.sent = now, 0
	}
	if avLog.sent >= avLogBurst {
		avLog.missed++
		avLog.mu.Unlock()
		return
	}
	avLog.sent++
	missed := avLog.missed
	avLog.missed = 0
	avLog.mu.Unlock()

	l := avLog.logger.Load()
	if l == nil {
		l = slog.Default()
	}
	attrs := []slog.Attr{slog.Int("av_level", int(level))}
	if missed > 0 {
		attrs = append(attrs, slog.Int("suppressed", missed))
	}
	l.LogAttrs(context.Background(), slog.LevelDebug, "libav: "+msg, attrs...)
}
