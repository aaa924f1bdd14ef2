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

// A decoder learns from what it hears: the cepstral mean normalisation
// keeps its running mean across utterances, and the first live audio
// turns the model's batch normalisation into live for good. hs_cmn_size,
// hs_cmn_get and hs_cmn_set copy that state (kind, frame count, running
// mean and the sums behind it) out of a decoder and back into one, so
// that it belongs to whoever owns the audio (a batch job: the state as
// loaded; a live stream: its own) rather than to the pooled decoder.
_Static_assert(sizeof(mfcc_t) == 4, "mfcc_t is copied as 32-bit values");

static int hs_cmn_size(ps_decoder_t *ps) {
	feat_t *f = ps_get_feat(ps);
	return f->cmn_struct == NULL ? 0 : f->cmn_struct->veclen;
}

static void hs_cmn_get(ps_decoder_t *ps, int *kind, int *nframe, mfcc_t *mean, mfcc_t *sum) {
	feat_t *f = ps_get_feat(ps);
	*kind = f->cmn;
	if (f->cmn_struct != NULL) {
		cmn_t *c = f->cmn_struct;
		*nframe = c->nframe;
		memcpy(mean, c->cmn_mean, c->veclen * sizeof(mfcc_t));
		memcpy(sum, c->sum, c->veclen * sizeof(mfcc_t));
	}
}

// hs_cmn_set also starts a new stream, which forgets the front end's
// noise estimate: it would otherwise carry what the decoder's previous
// user said into the next utterance. Each utterance then begins as it
// would in a freshly loaded decoder, which is how the engine alone hears.
static int hs_cmn_set(ps_decoder_t *ps, int kind, int nframe, const mfcc_t *mean, const mfcc_t *sum) {
	feat_t *f = ps_get_feat(ps);
	f->cmn = kind;
	if (f->cmn_struct != NULL) {
		cmn_t *c = f->cmn_struct;
		memcpy(c->cmn_mean, mean, c->veclen * sizeof(mfcc_t));
		memcpy(c->sum, sum, c->veclen * sizeof(mfcc_t));
		c->nframe = nframe;
	}
	return ps_start_stream(ps);
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
	fresh normalisation // as loaded
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
	d := &cDecoder{ps: ps}
	d.fresh = d.learnt()
	return d, nil
}

func (d *cDecoder) learnt() normalisation {
	n := int(C.hs_cmn_size(d.ps))
	l := normalisation{mean: make([]float32, n), sum: make([]float32, n)}
	var kind, frames C.int
	var mean, sum *C.mfcc_t
	if n > 0 {
		mean, sum = (*C.mfcc_t)(unsafe.Pointer(&l.mean[0])), (*C.mfcc_t)(unsafe.Pointer(&l.sum[0]))
	}
	C.hs_cmn_get(d.ps, &kind, &frames, mean, sum)
	l.kind, l.frames = int32(kind), int32(frames)
	return l
}

func (d *cDecoder) resume(n *normalisation) error {
	if n == nil {
		n = &d.fresh
	}
	if len(n.mean) != int(C.hs_cmn_size(d.ps)) {
		return errors.New("pocketsphinx: a normalisation from another model")
	}
	var mean, sum *C.mfcc_t
	if len(n.mean) > 0 {
		mean, sum = (*C.mfcc_t)(unsafe.Pointer(&n.mean[0])), (*C.mfcc_t)(unsafe.Pointer(&n.sum[0]))
	}
	if C.hs_cmn_set(d.ps, C.int(n.kind), C.int(n.frames), mean, sum) < 0 {
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
		d.ps = nil
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
