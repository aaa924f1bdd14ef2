//go:build whisper && cgo

package localstt

/*
#include <whisper.h>
#include <ggml.h>

extern void hearthWhisperLog(int level, char *text, void *user);

static void hearth_whisper_log(enum ggml_log_level level, const char *text, void *user) {
	hearthWhisperLog((int)level, (char *)text, user);
}

static void hearth_whisper_log_set(void) {
	whisper_log_set(hearth_whisper_log, NULL);
	ggml_log_set(hearth_whisper_log, NULL);
}
*/
import "C"

// setLogHook points whisper.cpp's and ggml's log at hearthWhisperLog
// (whisperlog.go: a file with an export may not define C functions).
func setLogHook() { C.hearth_whisper_log_set() }
