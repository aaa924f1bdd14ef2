// The libav* functions the decoders call, resolved at first use (avload.c)
// instead of linked: libavcodec and libavformat pull in about 130 shared
// libraries (x265, librsvg, gnutls, glib…) whose mapping and start-up
// allocations cost an appliance that never receives AAC or a container file
// about 25 MB of resident memory. Include this after the libav headers: the
// macros below turn each call into a call through the loaded table.
#ifndef HEARTH_AVLOAD_H
#define HEARTH_AVLOAD_H
#include <libavcodec/avcodec.h>
#include <libavutil/dict.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>

// hearth_avlib_open loads one library by file name (NULL with err set when
// it cannot); hearth_avlib_sym stores one symbol of it in *slot (-1 with err
// set when it is missing).
void *hearth_avlib_open(const char *name, char *err, int errlen);
int hearth_avlib_sym(void *lib, const char *name, void **slot, char *err, int errlen);

// hearth_avcodec_load loads libavutil and libavcodec of the major versions
// this was compiled against: 0, or -1 with a message in err.
int hearth_avcodec_load(char *err, int errlen);

typedef struct {
	__typeof__(av_frame_alloc) *av_frame_alloc;
	__typeof__(av_frame_free) *av_frame_free;
	__typeof__(av_frame_unref) *av_frame_unref;
	__typeof__(av_dict_set) *av_dict_set;
	__typeof__(av_dict_free) *av_dict_free;
	__typeof__(avcodec_find_decoder) *avcodec_find_decoder;
	__typeof__(avcodec_alloc_context3) *avcodec_alloc_context3;
	__typeof__(avcodec_open2) *avcodec_open2;
	__typeof__(avcodec_free_context) *avcodec_free_context;
	__typeof__(avcodec_parameters_to_context) *avcodec_parameters_to_context;
	__typeof__(avcodec_send_packet) *avcodec_send_packet;
	__typeof__(avcodec_receive_frame) *avcodec_receive_frame;
	__typeof__(av_packet_alloc) *av_packet_alloc;
	__typeof__(av_packet_free) *av_packet_free;
	__typeof__(av_packet_unref) *av_packet_unref;
	__typeof__(av_new_packet) *av_new_packet;
	__typeof__(av_log_set_callback) *av_log_set_callback;
	__typeof__(av_log_format_line2) *av_log_format_line2;
} hearth_avcodec_fns;

extern hearth_avcodec_fns hearth_avcodec;

#ifdef AVFORMAT_AVFORMAT_H
// hearth_avformat_load loads libavformat (after hearth_avcodec_load).
int hearth_avformat_load(char *err, int errlen);

typedef struct {
	__typeof__(avformat_open_input) *avformat_open_input;
	__typeof__(avformat_find_stream_info) *avformat_find_stream_info;
	__typeof__(avformat_close_input) *avformat_close_input;
	__typeof__(av_find_best_stream) *av_find_best_stream;
	__typeof__(av_read_frame) *av_read_frame;
} hearth_avformat_fns;

extern hearth_avformat_fns hearth_avformat;
#endif

#ifndef HEARTH_AVLOAD_DEFINING
#define av_frame_alloc hearth_avcodec.av_frame_alloc
#define av_frame_free hearth_avcodec.av_frame_free
#define av_frame_unref hearth_avcodec.av_frame_unref
#define av_dict_set hearth_avcodec.av_dict_set
#define av_dict_free hearth_avcodec.av_dict_free
#define avcodec_find_decoder hearth_avcodec.avcodec_find_decoder
#define avcodec_alloc_context3 hearth_avcodec.avcodec_alloc_context3
#define avcodec_open2 hearth_avcodec.avcodec_open2
#define avcodec_free_context hearth_avcodec.avcodec_free_context
#define avcodec_parameters_to_context hearth_avcodec.avcodec_parameters_to_context
#define avcodec_send_packet hearth_avcodec.avcodec_send_packet
#define avcodec_receive_frame hearth_avcodec.avcodec_receive_frame
#define av_packet_alloc hearth_avcodec.av_packet_alloc
#define av_packet_free hearth_avcodec.av_packet_free
#define av_packet_unref hearth_avcodec.av_packet_unref
#define av_new_packet hearth_avcodec.av_new_packet
#ifdef AVFORMAT_AVFORMAT_H
#define avformat_open_input hearth_avformat.avformat_open_input
#define avformat_find_stream_info hearth_avformat.avformat_find_stream_info
#define avformat_close_input hearth_avformat.avformat_close_input
#define av_find_best_stream hearth_avformat.av_find_best_stream
#define av_read_frame hearth_avformat.av_read_frame
#endif
#endif
#endif
