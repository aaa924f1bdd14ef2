package models

import (
	"encoding/json"
	"fmt"
	"os"
)

// Model is one file of the catalog.
type Model struct {
	Name string `json:"name"` // "base.en", "tiny-q5_1"
	Size int64  `json:"size"` // bytes
	// SHA256 is checked when known (Hugging Face's LFS digest); otherwise
	// SHA1, the checksum whisper.cpp publishes for its models.
	SHA256 string `json:"sha256,omitempty"`
	SHA1   string `json:"sha1,omitempty"`
	// English is true for the .en models, which serve only English.
	English bool `json:"english"`
	// Quant names a quantization ("q5_1", "q8_0"); empty is F16.
	Quant string `json:"quant,omitempty"`
	// Kind is KindWhisper (empty) or KindSpeaker.
	Kind string `json:"kind,omitempty"`
	// FileName overrides the whisper.cpp naming (ggml-NAME.bin); URL is
	// where the file is published when that is not whisper.cpp's
	// repository (a mirror, --models-url, still serves it by FileName).
	FileName string `json:"file,omitempty"`
	URL      string `json:"url,omitempty"`
	// License is the weights' licence, for models that are not MIT.
	License string `json:"license,omitempty"`
}

// Kinds of model.
const (
	KindWhisper = ""
	// KindSpeaker is a speaker-embedding network in ONNX (80-band log-mel
	// filterbank in, one embedding out), run by appliance/speaker/onnx.
	KindSpeaker = "speaker"
)

// File is the model's file name, upstream and in DATA/models.
func (m Model) File() string {
	if m.FileName != "" {
		return m.FileName
	}
	return "ggml-" + m.Name + ".bin"
}

// DefaultBaseURL is where whisper.cpp's models are published.
const DefaultBaseURL = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main"

// Catalog is the whisper models the appliance knows: the sizes that run
// on a home server's CPU. Checksums are upstream's (whisper.cpp's model
// list for SHA-1; Hugging Face's LFS pointers for SHA-256).
var Catalog = []Model{
	{Name: "tiny", Size: 77691713, SHA1: "bd577a113a864445d4c299885e0cb97d4ba92b5f", SHA256: "be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21"},
	{Name: "tiny.en", Size: 77704715, English: true, SHA1: "c78c86eb1a8faa21b369bcd33207cc90d64ae9df", SHA256: "921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f"},
	{Name: "tiny-q5_1", Size: 32152673, Quant: "q5_1", SHA1: "2827a03e495b1ed3048ef28a6a4620537db4ee51", SHA256: "818710568da3ca15689e31a743197b520007872ff9576237bda97bd1b469c3d7"},
	{Name: "tiny.en-q5_1", Size: 32166155, English: true, Quant: "q5_1", SHA1: "3fb92ec865cbbc769f08137f22470d6b66e071b6"},
	{Name: "tiny-q8_0", Size: 43537433, Quant: "q8_0", SHA1: "19e8118f6652a650569f5a949d962154e01571d9"},
	{Name: "base", Size: 147951465, SHA1: "465707469ff3a37a2b9b8d8f89f2f99de7299dac", SHA256: "60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe"},
	{Name: "base.en", Size: 147964211, English: true, SHA1: "137c40403d78fd54d454da0f9bd998f78703390c"},
	{Name: "base-q5_1", Size: 59707625, Quant: "q5_1", SHA1: "a3733eda680ef76256db5fc5dd9de8629e62c5e7"},
	{Name: "base.en-q5_1", Size: 59721011, English: true, Quant: "q5_1", SHA1: "d26d7ce5a1b6e57bea5d0431b9c20ae49423c94a"},
	{Name: "base-q8_0", Size: 81768585, Quant: "q8_0", SHA1: "7bb89bb49ed6955013b166f1b6a6c04584a20fbe"},
	{Name: "small", Size: 487601967, SHA1: "55356645c2b361a969dfd0ef2c5a50d530afd8d5"},
	{Name: "small.en", Size: 487614201, English: true, SHA1: "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022"},

	// WeSpeaker's ResNet34-LM (VoxCeleb2, 256-dimensional embeddings), the
	// project's own ONNX export, pinned to a revision of its Hugging Face
	// repository; size and SHA-256 as published for that revision.
	{Name: "wespeaker-resnet34-lm", Kind: KindSpeaker, English: true, Size: 26530309,
		SHA256:   "7bb2f06e9df17cdf1ef14ee8a15ab08ed28e8d0ef5054ee135741560df2ec068",
		FileName: "voxceleb_resnet34_LM.onnx", License: "CC-BY-4.0",
		URL: "https://huggingface.co/Wespeaker/wespeaker-voxceleb-resnet34-LM/resolve/f0c48c298fd835726c27956a5d617bad7115627e/voxceleb_resnet34_LM.onnx"},
}

// LoadCatalog reads extra or replacement entries (a mirror's own files)
// from a JSON array of models.
func LoadCatalog(path string) ([]Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read model catalog: %w", err)
	}
	var ms []Model
	if err := json.Unmarshal(b, &ms); err != nil {
		return nil, fmt.Errorf("model catalog %s: %w", path, err)
	}
	for _, m := range ms {
		if m.Name == "" || m.Size <= 0 || (m.SHA256 == "" && m.SHA1 == "") {
			return nil, fmt.Errorf("model catalog %s: %q needs a name, a size and a checksum", path, m.Name)
		}
	}
	return ms, nil
}

// Merge returns base with extra's entries added or replaced by name.
func Merge(base, extra []Model) []Model {
	out := append([]Model(nil), base...)
	for _, e := range extra {
		replaced := false
		for i := range out {
			if out[i].Name == e.Name {
				out[i], replaced = e, true
			}
		}
		if !replaced {
			out = append(out, e)
		}
	}
	return out
}
