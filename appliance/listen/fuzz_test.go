package listen

import (
	"encoding/json"
	"math"
	"testing"
)

// FuzzClientMessage: any text a client sends is either ignored or read into
// well-formed segments; nothing panics.
func FuzzClientMessage(f *testing.F) {
	f.Add([]byte(`{"type":"suggested_transcript","stt_provider":"x","segments":[{"text":"hi","speaker":"SPEAKER_01","start":1,"end":2}]}`))
	f.Add([]byte(`{"type":"suggested_transcript","segments":[{"text":"  ","start":-5,"end":-9,"speaker_id":-3}]}`))
	f.Add([]byte(`{"type":"speaker_assigned","speaker_id":1,"person_id":"p","segment_ids":["a"]}`))
	f.Add([]byte(`{"type":"image_chunk","id":"i","index":0,"total":2,"data":"aGk="}`))
	f.Add([]byte(`[1,2`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m clientMessage
		if json.Unmarshal(data, &m) != nil {
			return
		}
		for _, s := range suggestedSegments(m) {
			if s.Text == "" || s.Start < 0 || s.End < s.Start || math.IsNaN(s.Start) || s.SpeakerID < 0 {
				t.Fatalf("bad segment %+v from %s", s, data)
			}
		}
	})
}
