package listen

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/stt"
)

// spoolSeconds bounds the audio a session holds that its route has not
// yet confirmed (as words). It is what a failed route's session keeps on
// disk for a later retry.
const spoolSeconds = 30

// spoolSlack is how far the spool may run over before it is trimmed: a
// trim copies what is kept, so trimming every frame of a long silence
// (when no words confirm anything) would copy the whole spool 50 times a
// second.
const spoolSlack = 5

// spool holds the stream's most recent audio after the last confirmed
// word, so that a route that fails mid-session loses nothing it was sent.
// A session with a tape (every sample on disk already) reads it from there
// and holds only where it is: up to 35 s of every session's audio in
// memory was half a server-heard session's heap.
type spool struct {
	mu        sync.Mutex
	tape      *tape   // set before the first add, or nil
	pcm       []int16 // without a tape
	start     int     // stream sample of pcm[0]
	end       int     // stream samples added
	confirmed int     // stream sample up to which words came back
}

func newSpool() *spool { return &spool{} }

func (s *spool) add(pcm []int16) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.end += len(pcm)
	if s.tape != nil {
		s.start = max(s.start, s.end-spoolSeconds*stt.SampleRate)
		return
	}
	s.pcm = append(s.pcm, pcm...)
	if len(s.pcm) <= (spoolSeconds+spoolSlack)*stt.SampleRate {
		return
	}
	if over := len(s.pcm) - spoolSeconds*stt.SampleRate; over > 0 {
		s.pcm = append(s.pcm[:0], s.pcm[over:]...)
		s.start += over
	}
}

// confirm marks the stream transcribed up to sec seconds.
func (s *spool) confirm(sec float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := int(sec * stt.SampleRate)
	if n <= s.confirmed {
		return
	}
	s.confirmed = n
	if drop := n - s.start; drop > 0 {
		drop = min(drop, s.end-s.start)
		if s.tape == nil {
			s.pcm = append(s.pcm[:0], s.pcm[drop:]...)
		}
		s.start += drop
	}
}

// held is the unconfirmed audio.
func (s *spool) held() ([]int16, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tape != nil {
		return s.tape.read(s.start, s.end)
	}
	return append([]int16(nil), s.pcm...), nil
}

// save writes the unconfirmed audio to dir as a 16 kHz WAV named after the
// conversation, and returns the path and the number of samples.
func (s *spool) save(dir, conversationID string, at time.Time) (string, int) {
	pcm, err := s.held()
	if err != nil || dir == "" || len(pcm) == 0 {
		return "", 0
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", 0
	}
	if conversationID == "" {
		conversationID = "unknown"
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.wav", conversationID, at.Unix()))
	if err := os.WriteFile(path, audio.WAV(pcm, stt.SampleRate), 0o600); err != nil {
		return "", 0
	}
	return path, len(pcm)
}
