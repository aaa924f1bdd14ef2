//go:build pocketsphinx && cgo

package pocketsphinx

// Decoder is one decoder outside any pool, for the tests that compare
// decoders with each other.
type Decoder struct{ d *cDecoder }

// Utterance is what a decoder hears in one utterance: its timed words and
// the English check's fit.
type Utterance = utterance

// LoadDecoder loads a decoder from modelDir; with lexicon, from the
// dictionary's entries for the words the LM knows, as the route does.
func LoadDecoder(modelDir string, lexicon bool) (*Decoder, error) {
	d, err := loadDecoder(modelDir, lexicon)
	if err != nil {
		return nil, err
	}
	return &Decoder{d}, nil
}

// Decode decodes one utterance, given whole.
func (d *Decoder) Decode(pcm []int16) (Utterance, error) { return d.d.decode(pcm) }

// Knows reports whether the decoder's dictionary has word.
func (d *Decoder) Knows(word string) bool { return d.d.knows(word) }

// Close frees the decoder.
func (d *Decoder) Close() { d.d.close() }

// Words is the words heard in u, joined by spaces.
func Words(u Utterance) string { return text(u.words) }
