//go:build libavformat && cgo

#define HEARTH_AVLOAD_DEFINING
#include <libavformat/avformat.h>
#include <libavformat/version.h>
#include <libavutil/macros.h>
#include "avload.h"

#ifdef _WIN32
#define AVFORMAT_LIB "avformat-" AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR) ".dll"
#elif defined(__APPLE__)
#define AVFORMAT_LIB "libavformat." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR) ".dylib"
#else
#define AVFORMAT_LIB "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)
#endif

hearth_avformat_fns hearth_avformat;

#define SYM(fn) \
	if (hearth_avlib_sym(lib, #fn, (void **)&hearth_avformat.fn, err, errlen) < 0) return -1

int hearth_avformat_load(char *err, int errlen) {
	void *lib = hearth_avlib_open(AVFORMAT_LIB, err, errlen);
	if (!lib) return -1;
	SYM(avformat_open_input);
	SYM(avformat_find_stream_info);
	SYM(avformat_close_input);
	SYM(av_find_best_stream);
	SYM(av_read_frame);
	return 0;
}
