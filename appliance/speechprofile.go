package appliance

import "time"

// SpeechProfile is the owner's voice, recorded once: the embedding live
// sessions compare new speakers with, and the speech it came from.
type SpeechProfile struct {
	UserID    string
	Extractor string // the extractor that made Embedding (another's is not comparable)
	Embedding []float32
	Seconds   float64 // speech in the profile, after trimming silence
	Audio     []byte  // the trimmed speech as a 16 kHz mono WAV
	CreatedAt time.Time
	UpdatedAt time.Time
}

// PersonVoice is what the appliance has learnt of a known person's voice.
type PersonVoice struct {
	PersonID   string
	PersonName string
	UserID     string
	Extractor  string
	Embedding  []float32
	Seconds    float64 // speech the embedding rests on
	UpdatedAt  time.Time
}
