//go:build pocketsphinx && cgo

package pocketsphinx

/*
#cgo pkg-config: pocketsphinx sphinxbase
#include <pocketsphinx.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// hs_free frees a decoder and, with glibc, hands the freed heap back to
// the system: the model is tens of megabytes in many small allocations,
// which glibc would otherwise keep for the process.
static void hs_free(ps_decoder_t *ps) {
	ps_free(ps);
#if defined(__GLIBC__)
	malloc_trim(0);
#endif
}

// hs_init loads the model; the log goes nowhere (the appliance logs what
// matters itself). The appliance cuts utterances with its own VAD, so
// PocketSphinx keeps every frame it is given.
static ps_decoder_t *hs_init(const char *hmm, const char *lm, const char *dict) {
	cmd_ln_t *config = cmd_ln_init(NULL, ps_args(), TRUE,
		"-hmm", hmm, "-lm", lm, "-dict", dict, "-logfn", "/dev/null", "-remove_silence", "no", NULL);
	if (config == NULL) return NULL;
	ps_decoder_t *ps = ps_init(config);
	cmd_ln_free_r(config);
	return ps;
}

// hs_fresh is what a decoder knew of the audio when it was loaded: the
// cepstral mean normalisation's kind and running mean. A decoder learns
// from what it hears: the live normalisation keeps its mean across
// utterances, the first live audio turns the model's batch normalisation
// into live for good, and the front end keeps its noise estimate from
// one utterance to the next. Restoring this and starting a new stream
// makes a decoder hear an utterance as a freshly loaded one would.
typedef struct {
	cmn_type_t type;
	int32 nframe, veclen;
	mfcc_t *mean, *sum;
} hs_fresh;

static hs_fresh *hs_snapshot(ps_decoder_t *ps) {
	feat_t *f = ps_get_feat(ps);
	hs_fresh *s = calloc(1, sizeof *s);
	if (s == NULL) return NULL;
	s->type = f->cmn;
	if (f->cmn_struct != NULL) {
		cmn_t *c = f->cmn_struct;
		s->veclen = c->veclen;
		s->nframe = c->nframe;
		s->mean = malloc(c->veclen * sizeof(mfcc_t));
		s->sum = malloc(c->veclen * sizeof(mfcc_t));
		if (s->mean == NULL || s->sum == NULL) {
			free(s->mean); free(s->sum); free(s);
			return NULL;
		}
		memcpy(s->mean, c->cmn_mean, c->veclen * sizeof(mfcc_t));
		memcpy(s->sum, c->sum, c->veclen * sizeof(mfcc_t));
	}
	return s;
}

static int hs_restore(ps_decoder_t *ps, const hs_fresh *s) {
	feat_t *f = ps_get_feat(ps);
	f->cmn = s->type;
	if (f->cmn_struct != NULL && s->mean != NULL) {
		cmn_t *c = f->cmn_struct;
		memcpy(c->cmn_mean, s->mean, s->veclen * sizeof(mfcc_t));
		memcpy(c->sum, s->sum, s->veclen * sizeof(mfcc_t));
		c->nframe = s->nframe;
	}
	return ps_start_stream(ps);
}

static void hs_fresh_free(hs_fresh *s) {
	if (s == NULL) return;
	free(s->mean);
	free(s->sum);
	free(s);
}

// hs_process feeds part of an utterance.
static int hs_process(ps_decoder_t *ps, const int16 *pcm, size_t n, int full) {
	return ps_process_raw(ps, pcm, n, FALSE, full) < 0 ? -2 : 0;
}
*/
import "C"

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Available reports whether this build has the recognizer.
const Available = true

// framesPerSecond is PocketSphinx's feature rate (10 ms frames).
const framesPerSecond = 100.0

// lifecycle serialises loading and freeing decoders: each load closes and
// reopens the library's one process-wide log file (-logfn), and two loads
// at once deadlock in it (seen: four threads stuck in hs_init when
// sessions and uploads needed decoders together).
var lifecycle sync.Mutex

// cDecoder is one loaded recognizer.
type cDecoder struct {
	ps    *C.ps_decoder_t
	fresh *C.hs_fresh // its state as loaded
}

func newDecoder(modelDir string) (decoder, error) {
	hmm := C.CString(filepath.Join(modelDir, "en-us"))
	lm := C.CString(filepath.Join(modelDir, "en-us.lm.bin"))
	dict := C.CString(filepath.Join(modelDir, "cmudict-en-us.dict"))
	defer C.free(unsafe.Pointer(hmm))
	defer C.free(unsafe.Pointer(lm))
	defer C.free(unsafe.Pointer(dict))
	lifecycle.Lock()
	ps := C.hs_init(hmm, lm, dict)
	lifecycle.Unlock()
	if ps == nil {
		return nil, errors.New("pocketsphinx: the model did not load")
	}
	fresh := C.hs_snapshot(ps)
	if fresh == nil {
		lifecycle.Lock()
		C.hs_free(ps)
		lifecycle.Unlock()
		return nil, errors.New("pocketsphinx: out of memory")
	}
	return &cDecoder{ps: ps, fresh: fresh}, nil
}

// reset makes the decoder hear the next utterance as it would have when
// loaded, whatever it heard before.
func (d *cDecoder) reset() error {
	if C.hs_restore(d.ps, d.fresh) < 0 {
		return errors.New("pocketsphinx: could not start a stream")
	}
	return nil
}

func (d *cDecoder) start() error {
	if C.ps_start_utt(d.ps) < 0 {
		return errors.New("pocketsphinx: could not start an utterance")
	}
	return nil
}

func (d *cDecoder) process(pcm []int16, whole bool) error {
	if len(pcm) == 0 {
		return nil
	}
	full := C.int(0)
	if whole {
		full = 1
	}
	if C.hs_process(d.ps, (*C.int16)(unsafe.Pointer(&pcm[0])), C.size_t(len(pcm)), full) != 0 {
		C.ps_end_utt(d.ps)
		return errors.New("pocketsphinx: decoding failed")
	}
	return nil
}

func (d *cDecoder) finish() ([]stt.Word, error) {
	if C.ps_end_utt(d.ps) < 0 {
		return nil, errors.New("pocketsphinx: could not end an utterance")
	}
	// This PocketSphinx numbers a segment's frames from somewhere before
	// the utterance (frames of earlier utterances count, depending on how
	// they were fed). The first segment (<s> or silence) begins the
	// utterance, so frames are taken relative to it.
	var words []stt.Word
	base := -1
	for seg := C.ps_seg_iter(d.ps); seg != nil; seg = C.ps_seg_next(seg) {
		var sf, ef C.int
		C.ps_seg_frames(seg, &sf, &ef)
		if base < 0 {
			base = int(sf)
		}
		w := cleanWord(C.GoString(C.ps_seg_word(seg)))
		if w == "" {
			continue
		}
		words = append(words, stt.Word{Text: w, Start: float64(int(sf)-base) / framesPerSecond, End: float64(int(ef)+1-base) / framesPerSecond})
	}
	return words, nil
}

func (d *cDecoder) close() {
	if d.ps != nil {
		lifecycle.Lock()
		C.hs_free(d.ps)
		lifecycle.Unlock()
		C.hs_fresh_free(d.fresh)
		d.ps, d.fresh = nil, nil
	}
}

// cleanWord drops what is not a word (<s>, </s>, <sil>, [NOISE]) and a
// pronunciation variant's suffix ("read(2)").
func cleanWord(w string) string {
	if w == "" || strings.HasPrefix(w, "<") || strings.HasPrefix(w, "[") || strings.HasPrefix(w, "+") {
		return ""
	}
	if i := strings.IndexByte(w, '('); i > 0 {
		w = w[:i]
	}
	return w
}
