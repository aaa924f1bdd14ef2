package listen

import (
	"context"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Live identification of the owner, as the contract describes it: when a
// speaker of the session has at least 2 s of speech, an embedding of up to
// 10 s of it (around the middle of their segments) is compared with the
// owner's speech profile; their segments from then on carry is_user and
// speech_profile_processed. The comparison runs off the flush cycle, which
// never waits for it.

// OwnerMatcher tells whether speech is the owner's (appliance/speaker).
type OwnerMatcher interface {
	IsOwner(ctx context.Context, pcm []int16) (bool, float64, error)
}

// Voices finds the owner's voice for a session; nil when the user has no
// speech profile.
type Voices interface {
	OwnerMatcher(ctx context.Context, userID string) (OwnerMatcher, error)
}

const (
	minSpeakerSpeech = 2 * time.Second  // the contract's minimum of new-speaker audio
	maxSpeakerSpeech = 10 * time.Second // the most that is embedded
	voiceWindow      = 30 * time.Second // recent audio kept for identification
)

// voiceRing keeps the session's recent audio in stream time, for cutting
// out a speaker's segments. Only sessions whose owner has a profile keep
// one (30 s of 16 kHz audio is 960 KB).
type voiceRing struct {
	mu    sync.Mutex
	pcm   []int16
	start int64 // stream sample index of pcm[0]
}

func (r *voiceRing) add(pcm []int16) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pcm = append(r.pcm, pcm...)
	if over := len(r.pcm) - int(voiceWindow.Seconds())*sampleRate; over > 0 {
		r.pcm = append(r.pcm[:0], r.pcm[over:]...)
		r.start += int64(over)
	}
}

// cut returns the audio between stream seconds from and to, as far as the
// ring still holds it.
func (r *voiceRing) cut(from, to float64) []int16 {
	r.mu.Lock()
	defer r.mu.Unlock()
	a := max(int64(from*sampleRate)-r.start, 0)
	b := min(int64(to*sampleRate)-r.start, int64(len(r.pcm)))
	if b <= a {
		return nil
	}
	return append([]int16(nil), r.pcm[a:b]...)
}

const sampleRate = 16000

// speakerVoice is what the session knows of one speaker's voice.
type speakerVoice struct {
	spans   [][2]float64 // stream-time spans of their segments
	speech  float64      // seconds in spans
	pending bool         // an identification is running
	known   bool         // identified: isUser says how
	isUser  bool
}

// identify records fresh segments' speech per speaker (stream time), starts
// an identification for a speaker who reached 2 s, and marks the segments
// of identified speakers. Called with s.mu held, before the segments are
// shifted to conversation time.
func (s *session) identify(ctx context.Context, fresh []appliance.TranscriptSegment) {
	if s.owner == nil {
		return
	}
	if s.voices == nil {
		s.voices = map[int]*speakerVoice{}
	}
	for i := range fresh {
		seg := &fresh[i]
		v := s.voices[seg.SpeakerID]
		if v == nil {
			v = &speakerVoice{}
			s.voices[seg.SpeakerID] = v
		}
		if v.known {
			seg.SpeechProfileProcessed = true
			if v.isUser && seg.PersonID == nil {
				seg.IsUser = true
			}
			continue
		}
		v.spans = append(v.spans, [2]float64{seg.Start, seg.End})
		v.speech += seg.End - seg.Start
		if v.speech >= minSpeakerSpeech.Seconds() && !v.pending {
			v.pending = true
			go s.identifySpeaker(ctx, seg.SpeakerID, v.spans)
		}
	}
}

// identifySpeaker embeds up to 10 s of a speaker's spans, nearest the
// middle of them, and records whether it is the owner.
func (s *session) identifySpeaker(ctx context.Context, speaker int, spans [][2]float64) {
	// The spans nearest the middle first: mid, mid-1, mid+1, mid-2, …
	mid := len(spans) / 2
	order := []int{mid}
	for d := 1; d < len(spans); d++ {
		if mid-d >= 0 {
			order = append(order, mid-d)
		}
		if mid+d < len(spans) {
			order = append(order, mid+d)
		}
	}
	budget := int(maxSpeakerSpeech.Seconds() * sampleRate)
	var pcm []int16
	for _, i := range order {
		if len(pcm) >= budget {
			break
		}
		pcm = append(pcm, s.ring.cut(spans[i][0], spans[i][1])...)
	}
	if len(pcm) > budget {
		pcm = pcm[:budget]
	}
	isUser, dist, err := s.owner.IsOwner(ctx, pcm)
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.voices[speaker]
	v.pending = false
	if err != nil {
		s.srv.d.Logger.Debug("speaker not identified", "user", s.user, "speaker", speaker, "err", err)
		return
	}
	v.known, v.isUser = true, isUser
	s.srv.d.Logger.Debug("speaker identified", "user", s.user, "speaker", speaker, "is_user", isUser, "distance", dist)
}
