package speaker_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// TestTrackerKeepsOneVoiceInOneLabel: one owner alone (Festival's slt, the
// voice of cmd/hearth's live tests), her profile of three sentences, then
// her segments as a live session flushes them: whole sentences and halves
// of them (a second or two each). Every segment must keep her label and
// most must be hers. Measured: 3 labels, 19 of 22 segments hers (the two
// others each a half sentence 0.055 and 0.070 from her profile); with a
// threshold that did not widen for short segments, 11 labels and 10 of
// 22; with the tracker margins tried and reverted in the second round, 14
// labels and 4 of 22 (as in cmd/hearth's TestWearableFasterThanTheRecognizer,
// where they split one owner into three new labels).
func TestTrackerKeepsOneVoiceInOneLabel(t *testing.T) {
	ex := speaker.NewBuiltin()
	ctx := context.Background()
	var profile []int16
	for _, s := range []string{"this is my voice for the profile", "i speak clearly and at an easy pace",
		"the kitchen window faces the garden"} {
		profile = append(profile, say(t, "slt", s)...)
	}
	prof, err := ex.Embed(ctx, profile)
	if err != nil {
		t.Fatal(err)
	}
	var segs [][]int16
	for _, s := range []string{"i will send the numbers to the finance team tomorrow", "the car needs new tires before winter",
		"the train to london leaves at nine in the morning", "i left my keys in the kitchen",
		"please check the weather before we go hiking", "the flight was delayed by two hours",
		"my sister is coming to visit next week", "let us meet at the coffee shop near the office"} {
		pcm := say(t, "slt", s)
		segs = append(segs, pcm, pcm[:len(pcm)/2], pcm[len(pcm)/2:])
	}
	tk := speaker.NewTracker(ex, prof)
	labels := map[int]bool{}
	owners, n := 0, 0
	var sb strings.Builder
	for _, pcm := range segs {
		if len(pcm) < 16000 {
			continue
		}
		e, err := ex.Embed(ctx, pcm)
		if err != nil {
			continue
		}
		label, owner := tk.Add(e, float64(len(pcm))/16000)
		n++
		labels[label] = true
		if owner {
			owners++
		}
		fmt.Fprintf(&sb, " %d%s(%.3f %.1fs)", label, map[bool]string{true: "*"}[owner], speaker.Distance(prof, e), float64(len(pcm))/16000)
	}
	t.Logf("%d labels, %d of %d segments the owner's:%s", len(labels), owners, n, sb.String())
	if owners < n*4/5 || len(labels) > 3 {
		t.Errorf("one voice alone: %d labels, %d of %d segments the owner's; want at most 3 labels and 4 in 5 hers", len(labels), owners, n)
	}
}

// TestMeasureShortSegments (HEARTH_SPEAKER_MEASURE=1): the recorded
// conversations of TestLiveRealVoices with every turn cut in two (1.5 to
// 4.5 s a segment, as a live recognizer's shorter utterances): is_user per
// segment and labels that took two people, clean and with 20 dB noise.
func TestMeasureShortSegments(t *testing.T) {
	if os.Getenv("HEARTH_SPEAKER_MEASURE") == "" {
		t.Skip("a measurement: HEARTH_SPEAKER_MEASURE=1")
	}
	ex := speaker.NewBuiltin()
	for _, snr := range []float64{0, 20} {
		right, total, merges, labels := 0, 0, 0, 0
		for _, voices := range realStreams {
			pcm, turns := realConversation(t, voices, 4, snr)
			var halves []realTurn
			for _, tr := range turns {
				mid := (tr.start + tr.end) / 2
				halves = append(halves, realTurn{tr.voice, tr.start, mid}, realTurn{tr.voice, mid, tr.end})
			}
			embs := embedTurns(t, ex, pcm, halves)
			for _, owner := range voices {
				r := liveSession(t, ex, pcm, halves, embs, owner)
				right, total, merges, labels = right+r.right, total+r.turns, merges+len(r.merged), labels+r.labels
				t.Logf("snr %2.0f owner %s: is_user %d/%d, %d labels, merged %v", snr, realVoices[owner].name, r.right, r.turns, r.labels, r.merged)
			}
		}
		t.Logf("snr %2.0f halves: is_user right for %.1f %% of %d segments, %d labels, %d took two people",
			snr, 100*float64(right)/float64(total), total, labels, merges)
	}
}
