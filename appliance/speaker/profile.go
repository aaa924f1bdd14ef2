package speaker

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
)

// ProfileStore keeps speech profiles.
type ProfileStore interface {
	PutSpeechProfile(ctx context.Context, p *appliance.SpeechProfile) error
	SpeechProfile(ctx context.Context, userID string) (*appliance.SpeechProfile, error)
	DeleteSpeechProfile(ctx context.Context, userID string) error
}

// Profile limits: the reference's rules for a speech-profile recording.
const (
	minProfile = 5 * time.Second
	maxProfile = 180 * time.Second
)

// The refusals of a profile recording, in the reference's words.
var (
	ErrNotWAV      = appliance.Errorf(appliance.EINVALID, "Invalid audio file: must be a valid 16kHz WAV.")
	ErrDuration    = appliance.Errorf(appliance.EINVALID, "Audio duration is invalid (must be 5-180 seconds)")
	ErrEmptyAudio  = appliance.Errorf(appliance.EINVALID, "Audio is empty")
	ErrExtraction  = appliance.Errorf(appliance.EUNAVAILABLE, "Failed to extract speaker embedding")
	ErrStoreFailed = appliance.Errorf(appliance.EUNAVAILABLE, "Failed to store speaker embedding")
)

// Profiles records and reads users' speech profiles, and gives sessions
// the household's known voices.
type Profiles struct {
	Store     ProfileStore
	Voices    VoiceStore // nil: people's voices are not learnt
	Extractor Extractor
	Now       func() time.Time
}

// Upload makes a user's speech profile from a recording (a 16 kHz WAV of
// 5 to 180 seconds): silence is trimmed, the voice embedded, and the
// profile stored in place of any earlier one.
func (p *Profiles) Upload(ctx context.Context, userID, wavPath string) (*appliance.SpeechProfile, error) {
	src, err := audio.OpenFile(wavPath)
	if err != nil {
		return nil, ErrNotWAV
	}
	defer src.Close()
	// The decoder names what it read, e.g. "WAV 16-bit 16000 Hz, 1 channel(s)".
	if f := src.Format(); !strings.HasPrefix(f, "WAV ") || !strings.Contains(f, " 16000 Hz") {
		return nil, ErrNotWAV
	}
	var pcm []int16
	buf := make([]int16, 16000)
	for {
		n, err := src.Read(buf)
		pcm = append(pcm, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, ErrNotWAV
		}
		if len(pcm) > int(maxProfile.Seconds()+1)*sampleRate {
			return nil, ErrDuration
		}
	}
	if d := time.Duration(len(pcm)) * time.Second / sampleRate; d < minProfile || d > maxProfile {
		return nil, ErrDuration
	}
	speech := trimSilence(pcm)
	if len(speech) < sampleRate/2 {
		return nil, ErrEmptyAudio
	}
	emb, err := p.Extractor.Embed(ctx, speech)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrExtraction, err)
	}
	now := p.now()
	prof := &appliance.SpeechProfile{UserID: userID, Extractor: p.Extractor.Name(), Embedding: emb,
		Seconds: float64(len(speech)) / sampleRate, Audio: audio.WAV(speech, sampleRate), CreatedAt: now, UpdatedAt: now}
	if old, err := p.Store.SpeechProfile(ctx, userID); err == nil {
		prof.CreatedAt = old.CreatedAt
	}
	if err := p.Store.PutSpeechProfile(ctx, prof); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStoreFailed, err)
	}
	return prof, nil
}

// reembed embeds a stored profile's speech with this extractor and stores
// the profile with that embedding in place of the other extractor's.
func (p *Profiles) reembed(ctx context.Context, prof *appliance.SpeechProfile) ([]float32, error) {
	speech, ok := profileSpeech(prof.Audio)
	if !ok {
		return nil, errors.New("its recording is not kept: record the profile again")
	}
	emb, err := p.Extractor.Embed(ctx, speech)
	if err != nil {
		return nil, fmt.Errorf("embed its recording again: %w", err)
	}
	next := *prof
	next.Extractor, next.Embedding = p.Extractor.Name(), emb
	if err := p.Store.PutSpeechProfile(ctx, &next); err != nil {
		return nil, err
	}
	return emb, nil
}

// profileSpeech is the PCM of a profile's recording, the WAV Upload
// stores (audio.WAV: a 44-byte header, 16 kHz mono 16-bit).
func profileSpeech(wav []byte) ([]int16, bool) {
	if len(wav) < 44 || string(wav[:4]) != "RIFF" || string(wav[8:16]) != "WAVEfmt " || string(wav[36:40]) != "data" ||
		binary.LittleEndian.Uint16(wav[22:]) != 1 || binary.LittleEndian.Uint32(wav[24:]) != sampleRate ||
		binary.LittleEndian.Uint16(wav[34:]) != 16 {
		return nil, false
	}
	data := wav[44:]
	if n := int(binary.LittleEndian.Uint32(wav[40:])); n < len(data) {
		data = data[:n]
	}
	pcm := make([]int16, len(data)/2)
	for i := range pcm {
		pcm[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
	}
	return pcm, len(pcm) > 0
}

// Get returns a user's profile (ENOTFOUND when there is none).
func (p *Profiles) Get(ctx context.Context, userID string) (*appliance.SpeechProfile, error) {
	return p.Store.SpeechProfile(ctx, userID)
}

// Delete forgets a user's profile.
func (p *Profiles) Delete(ctx context.Context, userID string) error {
	return p.Store.DeleteSpeechProfile(ctx, userID)
}

func (p *Profiles) now() time.Time {
	if p.Now != nil {
		return p.Now().UTC()
	}
	return time.Now().UTC()
}

// trimSilence keeps the stretches of speech (with 100 ms around each) and
// drops the pauses between them.
func trimSilence(pcm []int16) []int16 {
	const frame = sampleRate / 100 // 10 ms
	n := len(pcm) / frame
	energy := make([]float64, n)
	for i := range n {
		var e float64
		for _, v := range pcm[i*frame : (i+1)*frame] {
			e += float64(v) * float64(v)
		}
		energy[i] = math.Log(e/frame + 1e-3)
	}
	keep := make([]bool, n)
	for _, i := range voicedFrames(energy) {
		for j := max(i-10, 0); j <= min(i+10, n-1); j++ {
			keep[j] = true
		}
	}
	var out []int16
	for i, k := range keep {
		if k {
			out = append(out, pcm[i*frame:(i+1)*frame]...)
		}
	}
	return out
}
