package speaker_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// TestTrackerKeepsOneVoiceInOneLabel: one voice alone (Festival's slt, the
// voice of cmd/hearth's live tests) as a live session flushes it: whole
// sentences and halves of them (a second or two each), heard as the
// owner (her profile of three sentences), as a guest (the profile is
// kal's) and with no profile. Her segments must stay in few labels and,
// as the owner, most must be hers. Measured as the owner: 3 labels, 19 of
// 22 segments hers (the two others each a half sentence 0.055 and 0.070
// from her profile); with a threshold that did not widen for short
// segments, 11 labels and 10 of 22; with the tracker margins tried and
// reverted in the second round, 14 labels and 4 of 22 (as in cmd/hearth's
// TestWearableFasterThanTheRecognizer, where they split one owner into
// three new labels). As a guest or with no profile: 2 labels, with or
// without guestMargin.
func TestTrackerKeepsOneVoiceInOneLabel(t *testing.T) {
	ex := speaker.NewBuiltin()
	ctx := context.Background()
	profileOf := func(voice string) []float32 {
		var pcm []int16
		for _, s := range []string{"this is my voice for the profile", "i speak clearly and at an easy pace",
			"the kitchen window faces the garden"} {
			pcm = append(pcm, say(t, voice, s)...)
		}
		e, err := ex.Embed(ctx, pcm)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	var segs [][]int16
	for _, s := range []string{"i will send the numbers to the finance team tomorrow", "the car needs new tires before winter",
		"the train to london leaves at nine in the morning", "i left my keys in the kitchen",
		"please check the weather before we go hiking", "the flight was delayed by two hours",
		"my sister is coming to visit next week", "let us meet at the coffee shop near the office"} {
		pcm := say(t, "slt", s)
		segs = append(segs, pcm, pcm[:len(pcm)/2], pcm[len(pcm)/2:])
	}
	for _, tc := range []struct {
		name      string
		profile   []float32
		maxLabels int
		ownerMin  float64 // share of her segments marked the owner's
	}{
		{"the owner", profileOf("slt"), 3, 0.8},
		{"a guest", profileOf("kal"), 2, 0},
		{"no profile", nil, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tk := speaker.NewTracker(ex, tc.profile)
			// Labels as the tracker leaves them, after any segment it
			// moved later (a session re-sends those).
			var labs []int
			var owns []bool
			var lens []float64
			for _, pcm := range segs {
				if len(pcm) < 16000 { // a live session embeds a second or more
					continue
				}
				e, err := ex.Embed(ctx, pcm)
				if err != nil {
					t.Fatal(err)
				}
				label, owner := tk.Add(e, float64(len(pcm))/16000)
				labs, owns, lens = append(labs, label), append(owns, owner), append(lens, float64(len(pcm))/16000)
				for _, m := range tk.Moves() {
					labs[m.Segment], owns[m.Segment] = m.Label, m.Owner
				}
			}
			labels := map[int]bool{}
			owners, n := 0, len(labs)
			var sb strings.Builder
			for i, label := range labs {
				labels[label] = true
				if owns[i] {
					owners++
				}
				fmt.Fprintf(&sb, " %d%s(%.1fs)", label, map[bool]string{true: "*"}[owns[i]], lens[i])
			}
			t.Logf("%d labels, %d of %d segments the owner's:%s", len(labels), owners, n, sb.String())
			if len(labels) > tc.maxLabels {
				t.Errorf("one voice alone: %d labels, want at most %d", len(labels), tc.maxLabels)
			}
			if tc.ownerMin == 0 && owners > 0 {
				t.Errorf("%d of her segments marked the owner's", owners)
			}
			if float64(owners) < tc.ownerMin*float64(n) {
				t.Errorf("%d of %d segments marked the owner's, want %.0f %%", owners, n, 100*tc.ownerMin)
			}
		})
	}
}

// TestLiveRealVoicesCutShort: the recorded conversations of
// TestLiveRealVoices with every turn cut in two (1.5 to 4.5 s a segment, as
// a live recognizer's shorter utterances), every voice as the owner:
// is_user per segment, labels that took two people and segments under a
// label most of whose segments are another person's. Measured (256
// segments, 32 voices, docs/benchmarks.md "Speakers, fourth round"):
// clean 95.7 %, 84 labels, none holding two people; 20 dB 84.8 %, 72
// labels, 7 holding two people (29 segments): six a guest label of June's
// taking the Russian voice's half turns (the two voices' distances overlap
// in noise), one Allison's owner label taking half a turn of Carlo's. Before the owner's
// turns counted against a guest's label: 2 and 9 labels holding two
// people (3 and 37 segments), 77 and 62 labels. The ceilings are those
// figures; a label count far above them is one voice split over many.
// Since the owner is decided per label by its pooled means, 20 dB 88.7 %
// (clean unchanged), the floor 87 %.
func TestLiveRealVoicesCutShort(t *testing.T) {
	ex := speaker.NewBuiltin()
	for _, tc := range []struct {
		snr                         float64
		floor                       float64
		mergeCeil, impureCeil, lbls int
	}{{0, 0.95, 0, 0, 90}, {20, 0.87, 7, 29, 80}} {
		right, total, merges, labels, impure, moved := 0, 0, 0, 0, 0, 0
		for _, voices := range realStreams {
			pcm, turns := realConversation(t, voices, 4, tc.snr)
			var halves []realTurn
			for _, tr := range turns {
				mid := (tr.start + tr.end) / 2
				halves = append(halves, realTurn{tr.voice, tr.start, mid}, realTurn{tr.voice, mid, tr.end})
			}
			embs := embedTurns(t, ex, pcm, halves)
			for _, owner := range voices {
				r := liveSession(t, ex, pcm, halves, embs, owner)
				right, total, merges, labels = right+r.right, total+r.turns, merges+len(r.merged), labels+r.labels
				impure, moved = impure+r.impure, moved+r.moved
				t.Logf("snr %2.0f owner %s: is_user %d/%d, %d labels, merged %v, %d moved afterwards", tc.snr, realVoices[owner].name, r.right, r.turns, r.labels, r.merged, r.moved)
			}
		}
		acc := float64(right) / float64(total)
		t.Logf("snr %2.0f halves: is_user right for %.1f %% of %d segments, %d labels, %d took two people, %d segments under another person's label, %d moved afterwards",
			tc.snr, 100*acc, total, labels, merges, impure, moved)
		if acc < tc.floor {
			t.Errorf("snr %.0f: is_user right for %.1f %% of segments, floor %.0f %%", tc.snr, 100*acc, 100*tc.floor)
		}
		if merges > tc.mergeCeil || impure > tc.impureCeil {
			t.Errorf("snr %.0f: %d labels took two people (ceiling %d), %d segments under another person's label (ceiling %d)",
				tc.snr, merges, tc.mergeCeil, impure, tc.impureCeil)
		}
		if labels > tc.lbls {
			t.Errorf("snr %.0f: %d labels for 32 voices, ceiling %d", tc.snr, labels, tc.lbls)
		}
	}
}
