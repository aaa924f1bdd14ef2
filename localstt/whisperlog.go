//go:build whisper && cgo

package localstt

/*
#include <stdlib.h>
*/
import "C"

import (
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// whisper.cpp and ggml write their log to stderr unless told otherwise:
// model details and timings, one line at a time, outside the appliance's
// log. logTo sends them to slog instead, at debug level (an error at warn
// level): the route reports what matters in its own words.

var (
	whisperLog  atomic.Pointer[slog.Logger]
	hookOnce    sync.Once
	logMu       sync.Mutex
	logLine     strings.Builder
	logLineWarn bool
)

func logTo(l *slog.Logger) {
	whisperLog.Store(l)
	hookOnce.Do(setLogHook)
}

// ggml's levels (ggml.h, enum ggml_log_level).
const (
	ggmlError = 4
	ggmlCont  = 5 // continues the line before
)

//export hearthWhisperLog
func hearthWhisperLog(level C.int, text *C.char, _ unsafe.Pointer) {
	s := C.GoString(text)
	logMu.Lock()
	defer logMu.Unlock()
	if level != ggmlCont && logLine.Len() > 0 && !strings.HasSuffix(logLine.String(), "\n") {
		flushLine() // a new record while a line was open
	}
	if level == ggmlError {
		logLineWarn = true
	}
	logLine.WriteString(s)
	if strings.HasSuffix(s, "\n") {
		flushLine()
	}
}

// flushLine writes the line gathered so far. The caller holds logMu.
func flushLine() {
	line := strings.TrimSpace(logLine.String())
	warn := logLineWarn
	logLine.Reset()
	logLineWarn = false
	l := whisperLog.Load()
	if line == "" || l == nil {
		return
	}
	if warn {
		l.Warn("whisper.cpp", "line", line)
		return
	}
	l.Debug("whisper.cpp", "line", line)
}
