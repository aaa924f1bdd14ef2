// Shared by the libavcodec decoders (aac.go, container.go).
#ifndef HEARTH_AVFRAME_H
#define HEARTH_AVFRAME_H
#include <libavutil/frame.h>
#include <libavutil/samplefmt.h>
#include <stdint.h>

// hearth_frame_mono down-mixes a decoded frame to int16 mono in out (at
// most cap samples) and returns the count, or -3 for a sample format it
// does not know.
static int hearth_frame_mono(const AVFrame *f, int16_t *out, int cap) {
	int ch = f->ch_layout.nb_channels;
	int n = 0;
	for (int i = 0; i < f->nb_samples && n < cap; i++) {
		double acc = 0;
		for (int c = 0; c < ch; c++) {
			switch (f->format) {
			case AV_SAMPLE_FMT_FLTP: acc += ((const float *)f->extended_data[c])[i] * 32767.0; break;
			case AV_SAMPLE_FMT_FLT: acc += ((const float *)f->extended_data[0])[i * ch + c] * 32767.0; break;
			case AV_SAMPLE_FMT_DBLP: acc += ((const double *)f->extended_data[c])[i] * 32767.0; break;
			case AV_SAMPLE_FMT_DBL: acc += ((const double *)f->extended_data[0])[i * ch + c] * 32767.0; break;
			case AV_SAMPLE_FMT_S16P: acc += ((const int16_t *)f->extended_data[c])[i]; break;
			case AV_SAMPLE_FMT_S16: acc += ((const int16_t *)f->extended_data[0])[i * ch + c]; break;
			case AV_SAMPLE_FMT_S32P: acc += ((const int32_t *)f->extended_data[c])[i] / 65536.0; break;
			case AV_SAMPLE_FMT_S32: acc += ((const int32_t *)f->extended_data[0])[i * ch + c] / 65536.0; break;
			case AV_SAMPLE_FMT_U8P: acc += (((const uint8_t *)f->extended_data[c])[i] - 128) * 256.0; break;
			case AV_SAMPLE_FMT_U8: acc += (((const uint8_t *)f->extended_data[0])[i * ch + c] - 128) * 256.0; break;
			default: return -3;
			}
		}
		acc /= ch > 0 ? ch : 1;
		if (acc != acc) acc = 0; // NaN from a float stream
		if (acc > 32767) acc = 32767;
		if (acc < -32768) acc = -32768;
		out[n++] = (int16_t)acc;
	}
	return n;
}
#endif
