//go:build libavcodec && cgo

package audio

/*
#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/frame.h>
#include <libavutil/samplefmt.h>
#include <stdlib.h>
#include <string.h>
#include "avframe.h"
#include "avload.h"

typedef struct {
	AVCodecContext *ctx;
	AVPacket *pkt;
	AVFrame *frame;
} hearth_aac;

static hearth_aac *hearth_aac_open(void) {
	const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_AAC);
	if (!codec) return NULL;
	hearth_aac *h = calloc(1, sizeof(hearth_aac));
	h->ctx = avcodec_alloc_context3(codec);
	h->pkt = av_packet_alloc();
	h->frame = av_frame_alloc();
	if (!h->ctx || !h->pkt || !h->frame || avcodec_open2(h->ctx, codec, NULL) < 0) {
		avcodec_free_context(&h->ctx);
		av_packet_free(&h->pkt);
		av_frame_free(&h->frame);
		free(h);
		return NULL;
	}
	return h;
}

static void hearth_aac_close(hearth_aac *h) {
	avcodec_free_context(&h->ctx);
	av_packet_free(&h->pkt);
	av_frame_free(&h->frame);
	free(h);
}

// hearth_aac_decode decodes one ADTS frame into mono int16 samples (at most
// cap) at *rate; it returns the sample count, or a negative error.
static int hearth_aac_decode(hearth_aac *h, const uint8_t *data, int size, int16_t *out, int cap, int *rate) {
	if (av_new_packet(h->pkt, size) < 0) return -1;
	memcpy(h->pkt->data, data, size);
	int rc = avcodec_send_packet(h->ctx, h->pkt);
	av_packet_unref(h->pkt);
	if (rc < 0) return -2;
	int n = 0;
	while (avcodec_receive_frame(h->ctx, h->frame) == 0) {
		*rate = h->frame->sample_rate;
		int m = hearth_frame_mono(h->frame, out + n, cap - n);
		av_frame_unref(h->frame);
		if (m < 0) return m;
		n += m;
	}
	return n;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// aacDecoder decodes AAC (one ADTS frame per message) through libavcodec,
// down-mixed and resampled to 16 kHz; the stream's own rate is read from
// the decoded frames.
type aacDecoder struct {
	h    *C.hearth_aac
	pcm  []int16
	rate int
	rs   *Resampler
}

// maxAACSamples bounds one frame's output: 2048 samples per channel is the
// largest AAC frame (HE-AAC).
const maxAACSamples = 4096

func newAAC(channels int) (Decoder, error) {
	if err := avcodecOnce(); err != nil {
		return nil, fmt.Errorf("codec aac: %w", err)
	}
	h := C.hearth_aac_open()
	if h == nil {
		return nil, fmt.Errorf("codec aac %w: libavcodec has no AAC decoder", ErrUnavailable)
	}
	return &aacDecoder{h: h, pcm: make([]int16, maxAACSamples)}, nil
}

func (d *aacDecoder) Decode(dst []int16, frame []byte) ([]int16, error) {
	if d.h == nil {
		return dst, fmt.Errorf("aac: decoder closed")
	}
	if len(frame) == 0 {
		return dst, fmt.Errorf("aac: empty frame")
	}
	var rate C.int
	n := C.hearth_aac_decode(d.h, (*C.uint8_t)(unsafe.Pointer(&frame[0])), C.int(len(frame)),
		(*C.int16_t)(unsafe.Pointer(&d.pcm[0])), C.int(len(d.pcm)), &rate)
	if n < 0 {
		return dst, fmt.Errorf("aac: frame does not decode (%d)", int(n))
	}
	if n == 0 {
		return dst, nil // the decoder is priming
	}
	if d.rs == nil || int(rate) != d.rate {
		if err := checkAACRate(int(rate)); err != nil {
			return dst, err
		}
		d.rate = int(rate)
		d.rs = NewResampler(d.rate, Rate)
	}
	return d.rs.Process(dst, d.pcm[:n]), nil
}

// checkAACRate refuses a rate no AAC stream has. A corrupt frame can claim
// any rate, 0 among them (FFmpeg 5.1 decodes some noise that way), and a
// resampler from 0 Hz never advances: a live session hung on such a frame.
func checkAACRate(rate int) error {
	if rate < 4000 || rate > 192000 {
		return fmt.Errorf("aac: frame claims a sample rate of %d", rate)
	}
	return nil
}

func (d *aacDecoder) Close() error {
	if d.h != nil {
		C.hearth_aac_close(d.h)
		d.h = nil
	}
	return nil
}
