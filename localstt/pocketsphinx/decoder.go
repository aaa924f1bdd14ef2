//go:build pocketsphinx && cgo

package pocketsphinx

/*
#cgo pkg-config: pocketsphinx sphinxbase
#cgo linux LDFLAGS: -Wl,--as-needed -ldl
#define _GNU_SOURCE // memfd_create
#include <dlfcn.h>
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// The library is opened with dlopen at its first use, not linked: linked,
// the dynamic loader mapped and relocated libpocketsphinx, libsphinxbase
// and what they pull in (LAPACK, BLAS, libgfortran, libquadmath) before
// main on every start, 1-2.5 ms of a restart's ~20, for a route most
// appliances use minutes later if at all. The headers still give the
// types; nothing here refers to the library's symbols, so --as-needed
// leaves pkg-config's -l flags out of the binary's needed libraries. (On
// macOS cgo allows no flag that drops them: the library stays linked,
// unused until dlopen returns it.)
#if defined(__APPLE__)
#define HS_LIBRARY "libpocketsphinx.3.dylib"
#else
#define HS_LIBRARY "libpocketsphinx.so.3"
#endif

// HS_FUNCS lists every library function used here; hs_lib holds a pointer
// to each, typed by the header's declaration.
#define HS_FUNCS(X) \
	X(cmd_ln_init) X(cmd_ln_free_r) X(ps_args) X(ps_init) X(ps_free) X(ps_set_allphone_file) \
	X(ps_set_search) X(ps_get_hyp) X(ps_get_n_frames) X(ps_get_feat) X(ps_start_stream) \
	X(ps_start_utt) X(ps_process_raw) X(ps_end_utt) X(ps_seg_iter) X(ps_seg_next) X(ps_seg_word) \
	X(ps_seg_frames) X(ps_lookup_word) X(ngram_model_read) X(ngram_wid) X(ngram_unknown_wid) \
	X(ngram_model_free) X(logmath_init) X(logmath_free) X(err_get_logfp) X(err_set_logfp)

#define HS_FIELD(f) __typeof__(f) *f;
static struct { HS_FUNCS(HS_FIELD) } hs_lib;

// hs_load opens the library named and fills hs_lib: NULL when done, else
// why not (dlerror's text), hs_lib untouched.
static const char *hs_load(const char *name) {
	void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) return dlerror();
	__typeof__(hs_lib) lib;
	// sphinxbase's functions are found through libpocketsphinx's handle:
	// dlsym searches a library's dependencies too.
#define HS_SYM(f) if ((*(void **)&lib.f = dlsym(h, #f)) == NULL) { const char *why = dlerror(); dlclose(h); return why; }
	HS_FUNCS(HS_SYM)
#undef HS_SYM
	hs_lib = lib;
	return NULL;
}

// From here on each library function's name is its pointer in hs_lib.
#define cmd_ln_init hs_lib.cmd_ln_init
#define cmd_ln_free_r hs_lib.cmd_ln_free_r
#define ps_args hs_lib.ps_args
#define ps_init hs_lib.ps_init
#define ps_free hs_lib.ps_free
#define ps_set_allphone_file hs_lib.ps_set_allphone_file
#define ps_set_search hs_lib.ps_set_search
#define ps_get_hyp hs_lib.ps_get_hyp
#define ps_get_n_frames hs_lib.ps_get_n_frames
#define ps_get_feat hs_lib.ps_get_feat
#define ps_start_stream hs_lib.ps_start_stream
#define ps_start_utt hs_lib.ps_start_utt
#define ps_process_raw hs_lib.ps_process_raw
#define ps_end_utt hs_lib.ps_end_utt
#define ps_seg_iter hs_lib.ps_seg_iter
#define ps_seg_next hs_lib.ps_seg_next
#define ps_seg_word hs_lib.ps_seg_word
#define ps_seg_frames hs_lib.ps_seg_frames
#define ps_lookup_word hs_lib.ps_lookup_word
#define ngram_model_read hs_lib.ngram_model_read
#define ngram_wid hs_lib.ngram_wid
#define ngram_unknown_wid hs_lib.ngram_unknown_wid
#define ngram_model_free hs_lib.ngram_model_free
#define logmath_init hs_lib.logmath_init
#define logmath_free hs_lib.logmath_free
#define err_get_logfp hs_lib.err_get_logfp
#define err_set_logfp hs_lib.err_set_logfp

// Go cannot call through a C function pointer: what the Go code calls
// directly has a wrapper.
static int hs_start_utt(ps_decoder_t *ps) { return ps_start_utt(ps); }
static int hs_end_utt(ps_decoder_t *ps) { return ps_end_utt(ps); }
static ps_seg_t *hs_seg_iter(ps_decoder_t *ps) { return ps_seg_iter(ps); }
static ps_seg_t *hs_seg_next(ps_seg_t *seg) { return ps_seg_next(seg); }
static const char *hs_seg_word(ps_seg_t *seg) { return ps_seg_word(seg); }
static void hs_seg_frames(ps_seg_t *seg, int *sf, int *ef) { ps_seg_frames(seg, sf, ef); }
static int hs_knows(ps_decoder_t *ps, const char *word) { return ps_lookup_word(ps, word) != NULL; }

#define HS_PHONES "phones"
#define HS_WORDS "_default" // the search -lm makes

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
//
// With phones (the model's phonetic language model, or NULL), the decoder
// also holds a search over free sequences of English phones, context
// independent: it costs about a third of a word decode, where the
// context-dependent one took ten times the word decode and a gigabyte.
//
// Each decoder loads its own model: this PocketSphinx has no public way to
// share one between decoders that decode at once. Its trie LM keeps the
// last history's back-off weights inside the model while scoring
// (lm_trie_score writes them), so one LM given to two decoders
// (ps_set_lm) scored an utterance differently when the other decoded
// beside it; ps_init builds the dictionary and the search for each
// decoder, and already maps the acoustic model's mdef and mixture weights
// from their files (-mmap is on by default). With lexicon, the decoder
// reads only the dictionary's entries for words the LM knows (see
// hs_lexicon).
static int hs_lexicon(const char *lm, const char *dict);

static ps_decoder_t *hs_init(const char *hmm, const char *lm, const char *dict, const char *phones, int lexicon) {
	char known[32];
	int fd = lexicon ? hs_lexicon(lm, dict) : -1;
	if (fd >= 0) {
		snprintf(known, sizeof known, "/proc/self/fd/%d", fd);
		if (access(known, R_OK) == 0) dict = known;
	}
	cmd_ln_t *config = cmd_ln_init(NULL, ps_args(), TRUE,
		"-hmm", hmm, "-lm", lm, "-dict", dict, "-logfn", "/dev/null", "-remove_silence", "no",
		"-allphone_ci", "yes", NULL);
	ps_decoder_t *ps = config == NULL ? NULL : ps_init(config);
	if (config != NULL) cmd_ln_free_r(config);
	if (fd >= 0) close(fd);
	if (ps != NULL && phones != NULL && ps_set_allphone_file(ps, HS_PHONES, phones) < 0) {
		ps_free(ps);
		return NULL;
	}
	return ps;
}

// hs_lexicon returns a file (an anonymous one in memory, Linux only) of
// the dictionary's lines whose word, or whose variant's base word
// ("read(2)"), the LM knows, in the dictionary's order, with the
// dictionary's own line breaks; -1 when it cannot.
//
// The word search only ever enters words its LM knows: the others are
// left out of the lexicon tree, so they cost memory and no result. Debian's
// en-us dictionary has 134,723 entries and its LM 72,547 words; a decoder
// reading the 79,420 entries it can use holds ~12 MB less and hears
// exactly the same (TestLexiconHearsAsTheWholeDictionary). The known test
// is the search's own (ngram_wid against ngram_unknown_wid). The LM is read
// here once more (a trie read whole, ~30 ms) and freed before the decoder
// loads: nothing stays shared with it.
static int hs_lexicon(const char *lm, const char *dict) {
#if defined(__linux__)
	if (err_get_logfp() == stderr) err_set_logfp(NULL); // before the first load's -logfn
	logmath_t *lmath = logmath_init(1.0001, 0, FALSE);
	if (lmath == NULL) return -1;
	ngram_model_t *model = ngram_model_read(NULL, lm, NGRAM_AUTO, lmath);
	FILE *in = model == NULL ? NULL : fopen(dict, "r");
	int fd = in == NULL ? -1 : memfd_create("hearth-lexicon", 0);
	int copy = fd < 0 ? -1 : dup(fd);
	FILE *out = copy < 0 ? NULL : fdopen(copy, "w");
	if (out == NULL && copy >= 0) close(copy);
	int ok = out != NULL;
	if (ok) {
		char *line = NULL, word[512];
		size_t size = 0;
		int32 unknown = ngram_unknown_wid(model);
		while (ok && getline(&line, &size, in) > 0) {
			size_t n = strcspn(line + strspn(line, " \t"), " \t\r\n");
			const char *w = line + strspn(line, " \t");
			if (n == 0 || n >= sizeof word) continue;
			memcpy(word, w, n);
			word[n] = 0;
			char *variant = strrchr(word, '('); // as the dictionary finds a base word
			if (word[n - 1] == ')' && variant != NULL && variant != word) *variant = 0;
			if (ngram_wid(model, word) != unknown) ok = fputs(line, out) >= 0;
		}
		free(line);
		ok = !ferror(in) && ok;
		ok = fclose(out) == 0 && ok;
	}
	if (in != NULL) fclose(in);
	if (model != NULL) ngram_model_free(model);
	logmath_free(lmath);
	if (!ok && fd >= 0) {
		close(fd);
		fd = -1;
	}
	return fd;
#else
	return -1;
#endif
}

// hs_use selects the phone search or the word search.
static int hs_use(ps_decoder_t *ps, int phones) { return ps_set_search(ps, phones ? HS_PHONES : HS_WORDS); }

// hs_score is the best path's score of the utterance just decoded and its
// length in frames.
static int hs_score(ps_decoder_t *ps, int *frames) {
	int32 score = 0;
	ps_get_hyp(ps, &score);
	*frames = ps_get_n_frames(ps);
	return score;
}

// A decoder learns from what it hears: the cepstral mean normalisation
// keeps a mean, and the front end a noise estimate, from one utterance to
// the next (and the first audio fed in pieces would turn the model's
// batch normalisation into live for good). hs_cmn_size, hs_cmn_get and
// hs_cmn_set copy the normalisation's state (kind, frame count, mean and
// the sums behind it) out of a freshly loaded decoder and back into it
// before each utterance, so that every utterance is heard as that fresh
// decoder hears it.
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
// noise estimate.
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

// hs_process feeds a whole utterance: its cepstra are normalised by
// their own mean.
static int hs_process(ps_decoder_t *ps, const int16 *pcm, size_t n) {
	return ps_process_raw(ps, pcm, n, FALSE, TRUE) < 0 ? -2 : 0;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
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
	ps     *C.ps_decoder_t
	fresh  normalisation // as loaded
	phones bool          // it holds the phone search
}

// normalisation is the state of a decoder's cepstral mean normalisation,
// as the library holds it: its kind, how many frames its mean stands
// for, the mean and the sums behind it.
type normalisation struct {
	kind, frames int32
	mean, sum    []float32
}

// phoneModel is the model's phonetic language model (in Debian's
// pocketsphinx-en-us), which the English check decodes with; without it
// utterances are not checked.
const phoneModel = "en-us-phone.lm.bin"

// library opens PocketSphinx's library, once: nil when it is ready. A
// library missing at run time (the binary built where it was installed)
// makes the route not deployable, as a build without it is, found at
// the first decoder's load rather than at start-up, whose time opening
// it would cost.
var library = sync.OnceValue(func() error { return loadLibrary(C.HS_LIBRARY) })

// loadLibrary opens the library named; its error is a config_error.
func loadLibrary(name string) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	if why := C.hs_load(cname); why != nil {
		err := fmt.Errorf("pocketsphinx: %s did not load: %s", name, C.GoString(why))
		return configError("PocketSphinx's library is missing: install libpocketsphinx3 and pocketsphinx-en-us", err)
	}
	return nil
}

func newDecoder(modelDir string) (decoder, error) { return loadDecoder(modelDir, true) }

// loadDecoder loads a decoder; with lexicon, from the dictionary's
// entries for the words the LM knows only (see hs_lexicon).
func loadDecoder(modelDir string, lexicon bool) (*cDecoder, error) {
	if err := library(); err != nil {
		return nil, err
	}
	hmm := C.CString(filepath.Join(modelDir, "en-us"))
	lm := C.CString(filepath.Join(modelDir, "en-us.lm.bin"))
	dict := C.CString(filepath.Join(modelDir, "cmudict-en-us.dict"))
	defer C.free(unsafe.Pointer(hmm))
	defer C.free(unsafe.Pointer(lm))
	defer C.free(unsafe.Pointer(dict))
	var phones *C.char
	if st, err := os.Stat(filepath.Join(modelDir, phoneModel)); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
		phones = C.CString(filepath.Join(modelDir, phoneModel))
		defer C.free(unsafe.Pointer(phones))
	}
	lifecycle.Lock()
	only := C.int(0)
	if lexicon {
		only = 1
	}
	ps := C.hs_init(hmm, lm, dict, phones, only)
	lifecycle.Unlock()
	if ps == nil {
		return nil, errors.New("pocketsphinx: the model did not load")
	}
	d := &cDecoder{ps: ps, phones: phones != nil}
	n := int(C.hs_cmn_size(ps))
	d.fresh = normalisation{mean: make([]float32, n), sum: make([]float32, n)}
	var kind, frames C.int
	C.hs_cmn_get(ps, &kind, &frames, d.vec(d.fresh.mean), d.vec(d.fresh.sum))
	d.fresh.kind, d.fresh.frames = int32(kind), int32(frames)
	return d, nil
}

// vec is v as the library's vector type (nil when empty).
func (d *cDecoder) vec(v []float32) *C.mfcc_t {
	if len(v) == 0 {
		return nil
	}
	return (*C.mfcc_t)(unsafe.Pointer(&v[0]))
}

func (d *cDecoder) decode(pcm []int16) (utterance, error) {
	score, frames, err := d.search(false, pcm)
	if err != nil {
		return utterance{}, err
	}
	path := d.path()
	var u utterance
	for _, s := range path {
		if w := cleanWord(s.word); w != "" {
			u.words = append(u.words, stt.Word{Text: w, Start: float64(s.start) / framesPerSecond, End: float64(s.end) / framesPerSecond})
		}
	}
	if !d.phones || !checkable(frames, len(u.words)) || narrowBand(pcm) {
		return u, nil
	}
	free, _, err := d.search(true, pcm)
	if err != nil {
		return utterance{}, err
	}
	u.fit, u.overRoom, u.checked = float64(score-free)/float64(frames), overRoom(pcm), true
	u.edgesSilent = edgesSilent(d.path(), frames)
	return u, nil
}

// path is the best path of the utterance just decoded, its frames
// counted from the utterance's start. (This PocketSphinx numbers a
// segment's frames from somewhere before the utterance: frames of earlier
// utterances count, depending on how they were fed. The first segment,
// <s> or silence, begins the utterance.)
func (d *cDecoder) path() []segment {
	var out []segment
	base := -1
	for seg := C.hs_seg_iter(d.ps); seg != nil; seg = C.hs_seg_next(seg) {
		var sf, ef C.int
		C.hs_seg_frames(seg, &sf, &ef)
		if base < 0 {
			base = int(sf)
		}
		out = append(out, segment{word: C.GoString(C.hs_seg_word(seg)), start: int(sf) - base, end: int(ef) + 1 - base})
	}
	return out
}

// search decodes pcm whole with the phone search or the word search,
// from the decoder as loaded, and returns the best path's score and the
// utterance's frames.
func (d *cDecoder) search(phones bool, pcm []int16) (score, frames int, err error) {
	use := C.int(0)
	if phones {
		use = 1
	}
	if C.hs_use(d.ps, use) < 0 {
		return 0, 0, errors.New("pocketsphinx: could not select a search")
	}
	f := &d.fresh
	if C.hs_cmn_set(d.ps, C.int(f.kind), C.int(f.frames), d.vec(f.mean), d.vec(f.sum)) < 0 {
		return 0, 0, errors.New("pocketsphinx: could not start a stream")
	}
	if C.hs_start_utt(d.ps) < 0 {
		return 0, 0, errors.New("pocketsphinx: could not start an utterance")
	}
	if len(pcm) > 0 && C.hs_process(d.ps, (*C.int16)(unsafe.Pointer(&pcm[0])), C.size_t(len(pcm))) != 0 {
		C.hs_end_utt(d.ps)
		return 0, 0, errors.New("pocketsphinx: decoding failed")
	}
	if C.hs_end_utt(d.ps) < 0 {
		return 0, 0, errors.New("pocketsphinx: could not end an utterance")
	}
	var n C.int
	score = int(C.hs_score(d.ps, &n))
	return score, int(n), nil
}

// knows reports whether the decoder's dictionary has word.
func (d *cDecoder) knows(word string) bool {
	w := C.CString(word)
	defer C.free(unsafe.Pointer(w))
	return C.hs_knows(d.ps, w) != 0
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
