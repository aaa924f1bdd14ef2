package speaker_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/speaker"
)

// realStreams are the conversations the real-voice tests hear: four
// people each, Allison once in English and once in Spanish (her two
// prompt sets are one person, so a stream never holds both).
var realStreams = [][]int{{0, 2, 3, 4}, {1, 2, 3, 4}}

// liveResult is one owner's session over one stream.
type liveResult struct {
	right, turns int
	firstMarked  bool // the owner's first turn carried is_user
	labels       int
	merged       []string       // labels that took more than one person
	impure       int            // turns under a label whose most turns are another person's
	moved        int            // turns the tracker gave another label afterwards
	marked       map[int][2]int // per voice heard: turns marked is_user, turns
	trace        string
}

// liveSession runs a Tracker anchored on the owner's (clean) profile over
// a stream's turns, in order, as a live session labels its segments.
func liveSession(t *testing.T, ex speaker.Extractor, pcm []int16, turns []realTurn, embs [][]float32, owner int) liveResult {
	t.Helper()
	prof, err := ex.Embed(context.Background(), realProfile(t, owner))
	if err != nil {
		t.Fatal(err)
	}
	tk := speaker.NewTracker(ex, prof)
	r := liveResult{marked: map[int][2]int{}}
	people := map[int]map[string]bool{}
	count := map[int]map[string]int{} // per label, turns of each person
	var sb strings.Builder
	first := true
	// Each turn as the tracker labels it after the whole stream: the
	// session re-sends a turn the tracker moves later.
	labels, owners := make([]int, len(turns)), make([]bool, len(turns))
	for i, tr := range turns {
		labels[i], owners[i] = tk.Add(embs[i], float64(tr.end-tr.start)/16000)
		for _, m := range tk.Moves() {
			labels[m.Segment], owners[m.Segment] = m.Label, m.Owner
			r.moved++
		}
	}
	for i, tr := range turns {
		label, isUser := labels[i], owners[i]
		who := realVoices[tr.voice].person
		if tr.voice == owner && first {
			r.firstMarked, first = isUser, false
		}
		if isUser == (who == realVoices[owner].person) {
			r.right++
		}
		r.turns++
		m := r.marked[tr.voice]
		if isUser {
			m[0]++
		}
		m[1]++
		r.marked[tr.voice] = m
		if people[label] == nil {
			people[label] = map[string]bool{}
		}
		people[label][who] = true
		if count[label] == nil {
			count[label] = map[string]int{}
		}
		count[label][who]++
		mark := ""
		if isUser {
			mark = "*"
		}
		fmt.Fprintf(&sb, " %s:%d%s(%.3f)", realVoices[tr.voice].name, label, mark, speaker.Distance(prof, embs[i]))
	}
	r.labels = len(people)
	for _, c := range count {
		most, all := 0, 0
		for _, n := range c {
			most, all = max(most, n), all+n
		}
		r.impure += all - most
	}
	for l, ps := range people {
		if len(ps) > 1 {
			var names []string
			for p := range ps {
				names = append(names, p)
			}
			r.merged = append(r.merged, fmt.Sprintf("%d: %v", l, names))
		}
	}
	r.trace = sb.String()
	return r
}

func embedTurns(t *testing.T, ex speaker.Extractor, pcm []int16, turns []realTurn) [][]float32 {
	t.Helper()
	embs := make([][]float32, len(turns))
	for i, tr := range turns {
		e, err := ex.Embed(context.Background(), pcm[tr.start:tr.end])
		if err != nil {
			t.Fatal(err)
		}
		embs[i] = e
	}
	return embs
}

// TestLiveRealVoices: every voice as the owner (a profile of about 20 s,
// recorded in quiet) in conversations of four recorded people taking
// four turns each with 2 s pauses, clean and with 20 dB of white noise
// over the whole stream: the share of turns whose is_user is right, and
// whether a live label ever took two people, counted on the labels as the
// tracker leaves them (a turn it gives a guest afterwards is re-sent by
// the session). Measured (docs/speakers.md): 100 % clean and, since the
// owner is decided per label by its pooled cepstral means (labelmeans.go),
// 100 % with noise over the 128 turns (94.5 % before: June (fr) 75.0 and
// 81.3 %, her clean profile 0.021–0.044 from her own noisy turns and
// 0.025–0.039 from the Russian voice's). The owner's first turn is marked
// in 8 of the 8 sessions, clean and with noise (6 with noise before). The
// floors are the targets (95 % clean, 90 % with noise) for each
// owner, June included, and for the whole with noise 97 % (the rule's
// gain). Labels that took two people: none, clean or with noise, enforced
// as ceilings.
// It logs a table of each owner's session: of each voice's turns, how many
// were marked is_user.
func TestLiveRealVoices(t *testing.T) {
	ex := speaker.NewBuiltin()
	for _, tc := range []struct {
		name       string
		snr        float64
		floor      float64 // over every owner's turns
		ownerFloor float64 // each owner's
		juneFloor  float64 // June's (fr), the known weak owner with noise
		firstFloor int     // owners whose first turn was marked, of 8
		mergeCeil  int     // labels that took two people, over the 8 sessions
	}{{"clean", 0, 0.95, 0.95, 0.95, 8, 0}, {"20 dB noise", 20, 0.97, 0.90, 0.90, 8, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			right, total, firsts, merges, impure, moved := 0, 0, 0, 0, 0, 0
			table := []string{"owner \\ heard: turns marked is_user (en and es are one person)"}
			for _, voices := range realStreams {
				pcm, turns := realConversation(t, voices, 4, tc.snr)
				embs := embedTurns(t, ex, pcm, turns)
				for _, owner := range voices {
					r := liveSession(t, ex, pcm, turns, embs, owner)
					right, total = right+r.right, total+r.turns
					if r.firstMarked {
						firsts++
					}
					merges, impure = merges+len(r.merged), impure+r.impure
					table = append(table, confusionRow(owner, voices, r))
					moved += r.moved
					t.Logf("owner %s: is_user %d/%d, first turn marked %v, %d labels, merged %v, %d moved afterwards |%s", realVoices[owner].name,
						r.right, r.turns, r.firstMarked, r.labels, r.merged, r.moved, r.trace)
					floor := tc.ownerFloor
					if realVoices[owner].name == "fr" {
						floor = tc.juneFloor
					}
					if acc := float64(r.right) / float64(r.turns); acc < floor {
						t.Errorf("owner %s: is_user right for %.1f %% of turns, floor %.0f %%", realVoices[owner].name, 100*acc, 100*floor)
					}
				}
			}
			t.Logf("per owner and guest, %s:\n%s", tc.name, strings.Join(table, "\n"))
			acc := float64(right) / float64(total)
			t.Logf("is_user right for %.1f %% of %d turns; the owner's first turn marked in %d sessions of 8; %d labels took two people, %d turns under another person's label; %d turns moved afterwards",
				100*acc, total, firsts, merges, impure, moved)
			if acc < tc.floor {
				t.Errorf("is_user right for %.1f %% of turns, floor %.0f %%", 100*acc, 100*tc.floor)
			}
			if merges > tc.mergeCeil {
				t.Errorf("%d labels took two people, ceiling %d", merges, tc.mergeCeil)
			}
			if firsts < tc.firstFloor {
				t.Errorf("the owner's first turn marked in %d sessions of 8, floor %d", firsts, tc.firstFloor)
			}
		})
	}
}

// confusionRow is one owner's session as a row of the per-owner, per-guest
// table: of each voice's turns, how many were marked is_user (all of the
// owner's should be, none of a guest's), and the owner's share right.
func confusionRow(owner int, voices []int, r liveResult) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "  %-2s |", realVoices[owner].name)
	for _, v := range voices {
		m := r.marked[v]
		fmt.Fprintf(&sb, " %s %d/%d", realVoices[v].name, m[0], m[1])
	}
	fmt.Fprintf(&sb, " | right %.1f %%", 100*float64(r.right)/float64(r.turns))
	return sb.String()
}
