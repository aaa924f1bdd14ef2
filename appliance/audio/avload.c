//go:build (libavcodec || libavformat) && cgo

#define HEARTH_AVLOAD_DEFINING
#include <libavcodec/version.h>
#include <libavutil/macros.h>
#include <libavutil/version.h>
#include <stdarg.h>
#include <stdio.h>
#include "avload.h"
#include "_cgo_export.h"

#ifdef _WIN32
#include <windows.h>
#define AVLIB(base, major) base "-" AV_STRINGIFY(major) ".dll"
#elif defined(__APPLE__)
#include <dlfcn.h>
#define AVLIB(base, major) "lib" base "." AV_STRINGIFY(major) ".dylib"
#else
#include <dlfcn.h>
#define AVLIB(base, major) "lib" base ".so." AV_STRINGIFY(major)
#endif

hearth_avcodec_fns hearth_avcodec;

void *hearth_avlib_open(const char *name, char *err, int errlen) {
#ifdef _WIN32
	void *lib = (void *)LoadLibraryA(name);
	if (!lib) snprintf(err, errlen, "%s could not be loaded (error %lu)", name, (unsigned long)GetLastError());
#else
	void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
#ifdef __APPLE__
	// dyld looks for a bare name in /usr/local/lib and /usr/lib, not in
	// Homebrew's prefix on Apple silicon.
	char path[512];
	if (!lib) {
		snprintf(path, sizeof path, "/opt/homebrew/lib/%s", name);
		lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
#endif
	if (!lib) snprintf(err, errlen, "%s", dlerror());
#endif
	return lib;
}

int hearth_avlib_sym(void *lib, const char *name, void **slot, char *err, int errlen) {
#ifdef _WIN32
	*slot = (void *)GetProcAddress((HMODULE)lib, name);
#else
	*slot = dlsym(lib, name);
#endif
	if (!*slot) {
		snprintf(err, errlen, "the library has no %s", name);
		return -1;
	}
	return 0;
}

#define SYM(lib, table, fn) \
	if (hearth_avlib_sym(lib, #fn, (void **)&table.fn, err, errlen) < 0) return -1

// hearth_av_log is libav's log callback: instead of writing to stderr
// (raw lines in the middle of the appliance's JSON log), it formats the
// message with its "[aac @ 0x…]" prefix and hands it to Go (avlog.go),
// which logs it at debug, rate-limited. Chatty levels are dropped here.
static void hearth_av_log(void *avcl, int level, const char *fmt, va_list vl) {
	if (level > AV_LOG_INFO) return;
	char line[1024];
	int prefix = 1;
	hearth_avcodec.av_log_format_line2(avcl, level, fmt, vl, line, sizeof line, &prefix);
	hearthAVLog(level, line);
}

int hearth_avcodec_load(char *err, int errlen) {
	void *util = hearth_avlib_open(AVLIB("avutil", LIBAVUTIL_VERSION_MAJOR), err, errlen);
	if (!util) return -1;
	void *codec = hearth_avlib_open(AVLIB("avcodec", LIBAVCODEC_VERSION_MAJOR), err, errlen);
	if (!codec) return -1;
	SYM(util, hearth_avcodec, av_frame_alloc);
	SYM(util, hearth_avcodec, av_frame_free);
	SYM(util, hearth_avcodec, av_frame_unref);
	SYM(util, hearth_avcodec, av_dict_set);
	SYM(util, hearth_avcodec, av_dict_free);
	SYM(codec, hearth_avcodec, avcodec_find_decoder);
	SYM(codec, hearth_avcodec, avcodec_alloc_context3);
	SYM(codec, hearth_avcodec, avcodec_open2);
	SYM(codec, hearth_avcodec, avcodec_free_context);
	SYM(codec, hearth_avcodec, avcodec_parameters_to_context);
	SYM(codec, hearth_avcodec, avcodec_send_packet);
	SYM(codec, hearth_avcodec, avcodec_receive_frame);
	SYM(codec, hearth_avcodec, av_packet_alloc);
	SYM(codec, hearth_avcodec, av_packet_free);
	SYM(codec, hearth_avcodec, av_packet_unref);
	SYM(codec, hearth_avcodec, av_new_packet);
	SYM(util, hearth_avcodec, av_log_set_callback);
	SYM(util, hearth_avcodec, av_log_format_line2);
	hearth_avcodec.av_log_set_callback(hearth_av_log);
	return 0;
}
