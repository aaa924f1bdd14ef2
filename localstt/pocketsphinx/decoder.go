//go:build pocketsphinx && cgo

package pocketsphinx

/*
#cgo pkg-config: pocketsphinx sphinxbase
#include <pocketsphinx.h>
#include <stdlib.h>

// hs_init loads the model; the log goes nowhere (the appliance logs what
// matters itself).
static ps_decoder_t *hs_init(const char *hmm, const char *lm, const char *dict) {
	cmd_ln_t *config = cmd_ln_init(NULL, ps_args(), TRUE,
		"-hmm", hmm, "-lm", lm, "-dict", dict, "-logfn", "/dev/null", NULL);
	if (config == NULL) return NULL;
	ps_decoder_t *ps = ps_init(config);
	cmd_ln_free_r(config);
	return ps;
}

// hs_decode decodes one whole utterance; 0 on success.
static int hs_decode(ps_decoder_t *ps, const int16 *pcm, size_t n) {
	if (ps_start_utt(ps) < 0) return -1;
	if (ps_process_raw(ps, pcm, n, FALSE, TRUE) < 0) { ps_end_utt(ps); return -2; }
	if (ps_end_utt(ps) < 0) return -3;
	return 0;
}
*/
import "C"

import (
	"errors"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

// Available reports whether this build has the recognizer.
const Available = true

// framesPerSecond is PocketSphinx's feature rate (10 ms frames).
const framesPerSecond = 100.0

type cDecoder struct{ ps *C.ps_decoder_t }

func newDecoder(modelDir string) (decoder, error) {
	hmm := C.CString(filepath.Join(modelDir, "en-us"))
	lm := C.CString(filepath.Join(modelDir, "en-us.lm.bin"))
	dict := C.CString(filepath.Join(modelDir, "cmudict-en-us.dict"))
	defer C.free(unsafe.Pointer(hmm))
	defer C.free(unsafe.Pointer(lm))
	defer C.free(unsafe.Pointer(dict))
	ps := C.hs_init(hmm, lm, dict)
	if ps == nil {
		return nil, errors.New("pocketsphinx: the model did not load")
	}
	return &cDecoder{ps: ps}, nil
}

func (d *cDecoder) decode(pcm []int16) ([]stt.Word, error) {
	if len(pcm) == 0 {
		return nil, nil
	}
	if rc := C.hs_decode(d.ps, (*C.int16)(unsafe.Pointer(&pcm[0])), C.size_t(len(pcm))); rc != 0 {
		return nil, errors.New("pocketsphinx: decoding failed")
	}
	var words []stt.Word
	for seg := C.ps_seg_iter(d.ps); seg != nil; seg = C.ps_seg_next(seg) {
		w := cleanWord(C.GoString(C.ps_seg_word(seg)))
		if w == "" {
			continue
		}
		var sf, ef C.int
		C.ps_seg_frames(seg, &sf, &ef)
		words = append(words, stt.Word{Text: w, Start: float64(sf) / framesPerSecond, End: float64(ef+1) / framesPerSecond})
	}
	return words, nil
}

func (d *cDecoder) close() {
	if d.ps != nil {
		C.ps_free(d.ps)
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
