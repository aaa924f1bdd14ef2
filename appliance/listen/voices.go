package listen

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// Live identification of the owner, as the contract describes it: when a
// speaker of the session has at least 2 s of speech, an embedding of up to
// 10 s of it (around the middle of their segments) is compared with the
// owner's speech profile; their segments from then on carry is_user and
// speech_profile_processed. The comparison runs off the flush cycle, which
// never waits for it.

// Household is the voices a session recognises (appliance/speaker): the
// owner's profile and the people the owner has named.
type Household interface {
	HasProfile() bool
	Embed(ctx context.Context, pcm []int16) ([]float32, error)
	Threshold() float64
	Identify(ctx context.Context, pcm []int16) (speaker.Identity, error)
	Learn(ctx context.Context, personID, personName string, pcm []int16) error
	// Tracker tells one session's voices apart, anchored on the owner's
	// profile.
	Tracker() *speaker.Tracker
}

// Voices gives a session its user's household.
type Voices interface {
	Household(ctx context.Context, userID string) (Household, error)
}

const (
	minSpeakerSpeech = 2 * time.Second  // the contract's minimum of new-speaker audio
	maxSpeakerSpeech = 10 * time.Second // the most that is embedded
	voiceWindow      = 30 * time.Second // recent audio kept for identification
)

// voiceRing keeps the session's recent audio in stream time, for cutting
// out a speaker's segments. Only sessions that recognise voices keep one
// (30 s of 16 kHz audio is 960 KB).
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

// sampleRate is the rate every route hears, the appliance's one rate.
const sampleRate = audio.Rate

// speakerVoice is what the session knows of one speaker's voice.
type speakerVoice struct {
	spans  [][2]float64 // stream-time spans of their segments
	speech float64      // seconds in spans
	tried  float64      // speech when identification last ran and found nothing
	known  bool         // identified: isUser says how
	isUser bool
}

// identifyWait bounds one identification in the flush; the built-in
// extractor takes milliseconds, a model on a slow box longer.
const identifyWait = time.Second

// holdMax bounds how long segments wait for their speaker's identity: a
// speaker who says only a word or two is sent unidentified after it.
const holdMax = 4 * time.Second

// noteSpeech records fresh segments' speech per speaker (stream time).
// Called with s.flushMu held.
func (s *session) noteSpeech(fresh []appliance.TranscriptSegment) {
	if s.household == nil || s.audio == nil || s.audio.ring == nil {
		return
	}
	if s.rec.voices == nil {
		s.rec.voices = map[int]*speakerVoice{}
	}
	for _, seg := range fresh {
		v := s.rec.voices[seg.SpeakerID]
		if v == nil {
			v = &speakerVoice{}
			s.rec.voices[seg.SpeakerID] = v
		}
		if !v.known {
			v.spans = append(v.spans, [2]float64{seg.Start, seg.End})
			v.speech += seg.End - seg.Start
		}
	}
}

// identify marks fresh segments (stream time) of identified speakers, and
// identifies a speaker as soon as they have said 2 s, in the flush, so
// that the owner's first segment is sent as theirs. It returns how many
// of fresh may be sent now: from the first segment of a speaker not yet
// identifiable on, segments wait (at most holdMax, never in a final
// flush) for more of that speaker's speech. Called with s.flushMu held.
func (s *session) identify(ctx context.Context, fresh []appliance.TranscriptSegment, final bool) int {
	if s.household == nil || s.rec.voices == nil {
		return len(fresh)
	}
	hold := !final && s.household.HasProfile() &&
		(s.rec.heldSince.IsZero() || s.now().Sub(s.rec.heldSince) < holdMax)
	for i := range fresh {
		seg := &fresh[i]
		v := s.rec.voices[seg.SpeakerID]
		if v == nil {
			continue
		}
		if !v.known && v.speech >= minSpeakerSpeech.Seconds() && v.speech-v.tried >= 1 {
			s.identifySpeaker(ctx, seg.SpeakerID, v)
			s.mu.Lock()
			s.applyPeople(fresh[i:]) // a person assigned on recognition
			s.mu.Unlock()
		}
		if v.known {
			seg.SpeechProfileProcessed = s.household.HasProfile()
			if v.isUser && seg.PersonID == nil {
				seg.IsUser = true
			}
			continue
		}
		if hold && seg.PersonID == nil && !seg.IsUser && v.speech < minSpeakerSpeech.Seconds() {
			return i
		}
	}
	return len(fresh)
}

// correctTail marks the tail as the owner's when its speaker has since
// been identified as the owner and the client still holds it under its
// own id (the app replaces it in place), and reports whether it did.
// Called with s.flushMu held.
func (s *session) correctTail() bool {
	t := s.rec.extendable()
	if t == nil || t.IsUser || t.PersonID != nil || s.rec.voices == nil {
		return false
	}
	v := s.rec.voices[t.SpeakerID]
	if v == nil || !v.known || !v.isUser {
		return false
	}
	t.IsUser, t.SpeechProfileProcessed = true, true
	return true
}

// identifySpeaker embeds up to 10 s of a speaker's spans, nearest the
// middle of them, and records whether it is the owner. Called with
// s.flushMu held.
func (s *session) identifySpeaker(ctx context.Context, spk int, v *speakerVoice) {
	spans := v.spans
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
		pcm = append(pcm, s.audio.ring.cut(spans[i][0], spans[i][1])...)
	}
	if len(pcm) > budget {
		pcm = pcm[:budget]
	}
	ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), identifyWait)
	id, err := s.household.Identify(ictx, pcm)
	cancel()
	if err != nil {
		v.tried = v.speech
		s.srv.d.Logger.Debug("spk not identified", "user", s.user, "speaker", spk, "err", err)
		return
	}
	if s.diarizing && s.rec.tracker != nil {
		// The tracker judged each of this speaker's segments against the
		// profile on its own; ten seconds of a guest who sounds like the
		// owner must not make them the owner after all.
		id.Owner = s.rec.tracker.Owner(spk)
		if id.Owner {
			id.PersonID, id.PersonName = "", ""
		}
	}
	v.known, v.isUser = true, id.Owner
	s.srv.d.Logger.Debug("spk identified", "user", s.user, "speaker", spk, "is_user", id.Owner,
		"person_id", id.PersonID, "distance", id.Distance)
	if id.PersonID != "" {
		if s.p.SpeakerAutoAssign {
			s.mu.Lock()
			if s.people == nil {
				s.people = map[int]string{}
			}
			if _, named := s.people[spk]; !named {
				s.people[spk] = id.PersonID
			}
			s.mu.Unlock()
		}
		// Suggested once the segment it names has been sent.
		s.rec.suggestions = append(s.rec.suggestions, personSuggestion{speaker: spk, id: id})
	}
}

// personSuggestion is a speaker recognised as a known person, to suggest
// to the client after the flush that sends their segment.
type personSuggestion struct {
	speaker int
	id      speaker.Identity
}

// suggestPeople sends the suggestions of the flush that just sent its
// segments. Called with s.flushMu held.
func (s *session) suggestPeople(ctx context.Context) {
	for _, p := range s.rec.suggestions {
		s.suggestPerson(ctx, p.speaker, p.id)
	}
	s.rec.suggestions = nil
}

// suggestPerson tells the client a spk sounds like a known person
// (speaker_label_suggestion). With speaker_auto_assign=enabled the person is
// assigned at once, as if the owner had (the suggestion then names them);
// without it the suggestion carries an empty person_id, as the reference's
// newest version sends it. Called with s.flushMu held.
func (s *session) suggestPerson(ctx context.Context, spk int, id speaker.Identity) {
	segID := s.rec.lastSeg[spk]
	personID := ""
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p.SpeakerAutoAssign && s.people[spk] == id.PersonID {
		personID = id.PersonID
		if s.conv != nil && segID != "" {
			a := appliance.SpeakerAssignment{UserID: s.user, ConversationID: s.conv.ID, SpeakerID: spk,
				PersonID: id.PersonID, PersonName: id.PersonName, SegmentIDs: []string{segID}}
			go func() {
				if _, err := s.srv.d.Conversations.AssignSpeaker(context.WithoutCancel(ctx), a); err != nil {
					s.srv.d.Logger.Warn("automatic spk assignment not stored", "user", s.user, "err", err)
				}
			}()
		}
	}
	s.send(suggestion(spk, personID, id.PersonName, segID))
}

// learnVoice adds a spk's recent speech to what is known of the person
// the owner named them as (not the owner: the profile is theirs to record).
func (s *session) learnVoice(ctx context.Context, spk int, personID, personName string) {
	if s.household == nil || s.audio == nil || s.audio.ring == nil || personID == appliance.SelfPersonID {
		return
	}
	s.flushMu.Lock()
	var spans [][2]float64
	if v := s.rec.voices[spk]; v != nil {
		spans = append(spans, v.spans...)
	}
	s.flushMu.Unlock()
	var pcm []int16
	for _, sp := range spans {
		pcm = append(pcm, s.audio.ring.cut(sp[0], sp[1])...)
	}
	if len(pcm) < sampleRate {
		return // under a second of it still held: nothing to learn from
	}
	go func() {
		if err := s.household.Learn(context.WithoutCancel(ctx), personID, personName, pcm); err != nil {
			s.srv.d.Logger.Debug("voice not learnt", "user", s.user, "person_id", personID, "err", err)
		}
	}()
}

// A live session on a route that names no speakers tells voices apart
// itself, online: each new segment's speech (a second or more) is embedded
// as it is flushed (the built-in extractor takes about 2 ms per second of
// speech) and placed by the session's speaker.Tracker: the owner's when
// that segment's own voice is the profile's (so a guest is never made the
// owner by a label that drifted, and the owner's first segment is marked
// at once), else the nearest voice heard so far or a new one. A shorter
// segment stays with the speaker before it.

// diarizeWait bounds one embedding in the flush.
const diarizeWait = 150 * time.Millisecond

// diarize gives fresh segments (stream time) speaker ids by voice, and
// is_user from the tracker's decision. Called with s.flushMu held.
func (s *session) diarize(ctx context.Context, fresh []appliance.TranscriptSegment) {
	if !s.diarizing {
		return
	}
	for i := range fresh {
		seg := &fresh[i]
		s.rec.lastSpeaker = s.placeVoice(ctx, seg, s.voiceOf(seg.Start, seg.End), s.rec.lastSpeaker)
	}
}

// voiceOf is the audio between stream seconds from and to: from the ring
// of recent audio, or from the session's tape when a route decoding far
// behind the audio (a busy box) gives words older than the ring holds,
// which would otherwise be placed with no voice at all.
func (s *session) voiceOf(from, to float64) []int16 {
	pcm := s.audio.ring.cut(from, to)
	if s.audio.tape == nil || len(pcm) >= int((to-from)*sampleRate)-sampleRate/50 {
		return pcm
	}
	if whole, err := s.audio.tape.read(int(from*sampleRate), int(to*sampleRate)); err == nil && len(whole) > len(pcm) {
		return whole
	}
	return pcm
}

// diarizeLate gives segments transcribed late (stream time) their
// speakers as diarize gives live ones theirs, from their audio on the
// session's tape (the recent audio diarize cuts from is long gone). A
// short segment stays with the speaker before it in its stretch. Called
// with s.flushMu held.
func (s *session) diarizeLate(ctx context.Context, segs []appliance.TranscriptSegment) {
	if !s.diarizing || s.audio == nil || s.audio.tape == nil {
		return
	}
	prev := s.rec.lastSpeaker
	from := s.rec.placedN
	for i := range segs {
		seg := &segs[i]
		pcm, err := s.audio.tape.read(int(seg.Start*sampleRate), int(seg.End*sampleRate))
		if err != nil {
			pcm = nil
		}
		prev = s.placeVoice(ctx, seg, pcm, prev)
	}
	// Sent by their time among the others, never re-sent (relabel.go).
	for n := from; n < s.rec.placedN; n++ {
		if p := s.rec.placed[n]; p != nil {
			p.late = true
		}
	}
}

// placeVoice labels seg with the speaker the session's tracker places
// pcm (its audio) with, or with fallback when pcm is under a second or
// its embedding fails; is_user when that speaker is the owner. It
// returns the label. Called with s.flushMu held.
func (s *session) placeVoice(ctx context.Context, seg *appliance.TranscriptSegment, pcm []int16, fallback int) int {
	if s.rec.tracker == nil {
		s.rec.tracker = s.household.Tracker()
	}
	spk := fallback
	if len(pcm) >= sampleRate {
		// Bounded: an embedding service on the LAN must not hold up the
		// flush (the built-in extractor takes milliseconds).
		ectx, cancel := context.WithTimeout(ctx, diarizeWait)
		e, err := s.household.Embed(ectx, pcm)
		cancel()
		if err == nil {
			spk, _ = s.rec.tracker.Add(e, float64(len(pcm))/sampleRate)
			s.rec.notePlaced(seg, spk)
		}
	}
	seg.SpeakerID, seg.Speaker = spk, fmt.Sprintf("SPEAKER_%02d", spk)
	if s.household.HasProfile() && s.rec.tracker.Owner(spk) {
		seg.IsUser, seg.SpeechProfileProcessed = true, true
	}
	return spk
}
