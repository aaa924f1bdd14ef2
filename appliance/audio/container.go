//go:build libavformat && cgo

package audio

/*
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/dict.h>
#include <stdlib.h>
#include "avframe.h"
#include "avload.h"

typedef struct {
	AVFormatContext *fmt;
	AVCodecContext *ctx;
	AVPacket *pkt;
	AVFrame *frame;
	int stream;
	int eof;
	int bad;
} hearth_av;

static void hearth_av_close(hearth_av *h) {
	avcodec_free_context(&h->ctx);
	av_packet_free(&h->pkt);
	av_frame_free(&h->frame);
	avformat_close_input(&h->fmt);
	free(h);
}

// hearth_av_open opens an audio file. Only local files and the containers
// a phone or recorder writes are probed: an upload is untrusted input.
static int hearth_av_open(const char *path, hearth_av **out, int64_t *duration_us) {
	hearth_av *h = calloc(1, sizeof(hearth_av));
	if (!h) return -1;
	AVDictionary *opts = NULL;
	av_dict_set(&opts, "protocol_whitelist", "file", 0);
	av_dict_set(&opts, "format_whitelist", "mp3,mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,flac,ogg,wav,aac,amr,aiff,caf", 0);
	int rc = avformat_open_input(&h->fmt, path, NULL, &opts);
	av_dict_free(&opts);
	if (rc < 0) { free(h); return -2; }
	if (avformat_find_stream_info(h->fmt, NULL) < 0) { hearth_av_close(h); return -3; }
	const AVCodec *codec = NULL;
	h->stream = av_find_best_stream(h->fmt, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
	if (h->stream < 0 || !codec) { hearth_av_close(h); return -4; }
	h->ctx = avcodec_alloc_context3(codec);
	h->pkt = av_packet_alloc();
	h->frame = av_frame_alloc();
	if (!h->ctx || !h->pkt || !h->frame ||
		avcodec_parameters_to_context(h->ctx, h->fmt->streams[h->stream]->codecpar) < 0 ||
		avcodec_open2(h->ctx, codec, NULL) < 0) {
		hearth_av_close(h);
		return -5;
	}
	*duration_us = h->fmt->duration == AV_NOPTS_VALUE ? 0 : h->fmt->duration;
	*out = h;
	return 0;
}

// hearth_av_read decodes the next frame to mono int16 (at most cap samples)
// at *rate: the sample count, 0 at the end, or a negative error.
static int hearth_av_read(hearth_av *h, int16_t *out, int cap, int *rate) {
	for (;;) {
		int rc = avcodec_receive_frame(h->ctx, h->frame);
		if (rc == 0) {
			*rate = h->frame->sample_rate;
			int n = hearth_frame_mono(h->frame, out, cap);
			av_frame_unref(h->frame);
			return n;
		}
		if (rc == AVERROR_EOF) return 0;
		if (rc != AVERROR(EAGAIN)) return -6;
		if (h->eof) return 0;
		rc = av_read_frame(h->fmt, h->pkt);
		if (rc < 0) {
			h->eof = 1;
			avcodec_send_packet(h->ctx, NULL); // drain
			continue;
		}
		if (h->pkt->stream_index != h->stream) {
			av_packet_unref(h->pkt);
			continue;
		}
		rc = avcodec_send_packet(h->ctx, h->pkt);
		av_packet_unref(h->pkt);
		if (rc < 0 && rc != AVERROR(EAGAIN) && ++h->bad > 50) return -7; // a damaged packet is skipped; a damaged file is not audio
	}
}
*/
import "C"

import (
	"fmt"
	"io"
	"sync"
	"time"
	"unsafe"
)

// avSource reads the containers beyond WAV and Ogg Opus (MP3, M4A/AAC,
// WebM, FLAC, Ogg Vorbis, AMR, AIFF, CAF) through libavformat.
type avSource struct {
	h        *C.hearth_av
	pcm      []int16
	out      []int16
	rate     int
	rs       *Resampler
	duration time.Duration
}

// maxAVFrame bounds one decoded frame, per channel (FLAC frames reach 65535).
const maxAVFrame = 1 << 16

// avformatOnce loads libavformat (and libavcodec) on the first container
// file, as avcodecOnce does.
var avformatOnce = sync.OnceValue(func() error {
	if err := avcodecOnce(); err != nil {
		return err
	}
	return avLoadResult("libavformat", func(buf *C.char, n C.int) C.int { return C.hearth_avformat_load(buf, n) })
})

func openContainer(path string) (Source, error) {
	if err := avformatOnce(); err != nil {
		return nil, fmt.Errorf("reading MP3, M4A and other containers: %w", err)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var h *C.hearth_av
	var us C.int64_t
	if rc := C.hearth_av_open(cpath, &h, &us); rc < 0 {
		return nil, fmt.Errorf("%w: not a recording this appliance reads (WAV, Ogg, MP3, M4A, WebM, FLAC, AMR, AIFF, CAF)", ErrInvalidAudio)
	}
	return &avSource{h: h, pcm: make([]int16, maxAVFrame), duration: time.Duration(us) * time.Microsecond}, nil
}

func (s *avSource) Read(dst []int16) (int, error) {
	for len(s.out) == 0 {
		if s.h == nil {
			return 0, io.EOF
		}
		var rate C.int
		n := C.hearth_av_read(s.h, (*C.int16_t)(unsafe.Pointer(&s.pcm[0])), C.int(len(s.pcm)), &rate)
		switch {
		case n < 0:
			return 0, fmt.Errorf("%w: the recording does not decode (%d)", ErrInvalidAudio, int(n))
		case n == 0:
			if s.rs != nil {
				s.out = s.rs.Process(s.out[:0], make([]int16, 64)) // the resampler's tail
			}
			s.free()
			continue
		}
		if s.rs == nil || int(rate) != s.rate {
			if int(rate) < 4000 || int(rate) > 192000 {
				return 0, fmt.Errorf("%w: sample rate %d", ErrInvalidAudio, int(rate))
			}
			s.rate, s.rs = int(rate), NewResampler(int(rate), Rate)
		}
		s.out = s.rs.Process(s.out[:0], s.pcm[:n])
	}
	n := copy(dst, s.out)
	s.out = s.out[n:]
	return n, nil
}

func (s *avSource) Duration() time.Duration { return s.duration }
func (s *avSource) Format() string          { return "container (libavformat)" }
func (s *avSource) Close() error {
	s.free()
	return nil
}

func (s *avSource) free() {
	if s.h != nil {
		C.hearth_av_close(s.h)
		s.h = nil
	}
}

// ReadsContainers reports whether this build reads MP3, M4A and the other
// containers beyond WAV and Ogg Opus, loading libavformat to find out.
func ReadsContainers() bool { return avformatOnce() == nil }
