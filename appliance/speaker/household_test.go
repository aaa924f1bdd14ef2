package speaker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/speaker"
	"github.com/hearth-appliance/hearth/store"
)

// axisExtractor embeds speech as the unit vector along the axis its first
// sample names, so a test chooses whose voice it plays.
type axisExtractor struct{}

func (axisExtractor) Name() string       { return "axis" }
func (axisExtractor) Threshold() float64 { return 0.3 }
func (axisExtractor) Embed(_ context.Context, pcm []int16) ([]float32, error) {
	v := make([]float32, 3)
	v[int(pcm[0])%3] = 1
	return v, nil
}

// TestHousehold_SeesPeopleChangedWhileItRuns: a session's household,
// loaded before the owner renames, merges or deletes people on the
// console, identifies by the people as they are now.
func TestHousehold_SeesPeopleChangedWhileItRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Now().UTC()
	if err := db.CreateUser(ctx, &appliance.User{ID: "u1", Name: "Ada", CreatedAt: now}); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Bob", "Cleo", "Dan"} {
		id := "p" + string(rune('0'+i))
		if err := db.CreatePerson(ctx, &appliance.Person{ID: id, UserID: "u1", Name: name, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		emb := make([]float32, 3)
		emb[i] = 1
		if err := db.PutPersonVoice(ctx, &appliance.PersonVoice{PersonID: id, UserID: "u1", Extractor: "axis",
			Embedding: emb, Seconds: 5, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	profiles := &speaker.Profiles{Store: db, Voices: db, Extractor: axisExtractor{}}
	h, err := profiles.Household(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	identify := func(axis int16) string {
		t.Helper()
		id, err := h.Identify(ctx, []int16{axis})
		if err != nil {
			t.Fatal(err)
		}
		return id.PersonID + " " + id.PersonName
	}
	if got := identify(0); got != "p0 Bob" {
		t.Fatalf("before any change: %q", got)
	}

	if _, err := db.RenamePerson(ctx, "u1", "p0", "Robert"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeletePerson(ctx, "u1", "p1"); err != nil {
		t.Fatal(err)
	}
	// Dan is merged into Robert: their voices pool, halfway between their
	// axes (0.29 from each, within the threshold), so both are Robert now.
	if err := db.MergePeople(ctx, "u1", "p2", "p0"); err != nil {
		t.Fatal(err)
	}
	for axis, want := range map[int16]string{0: "p0 Robert", 1: " ", 2: "p0 Robert"} {
		if got := identify(axis); got != want {
			t.Errorf("voice %d after rename, delete and merge: %q, want %q", axis, got, want)
		}
	}
}

// TestHousehold_ReembedsAProfileOfAnotherExtractor: a profile stored by
// another extractor (another version, or one switched off) is embedded
// again from its kept recording and stored so; one without a recording is
// an error that says what to do (the session logs it), never a session
// silently without the owner's voice.
func TestHousehold_ReembedsAProfileOfAnotherExtractor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	axis2 := audio.WAV(make([]int16, 16000), 16000)
	axis2[44] = 2 // the first sample: axisExtractor hears voice 2
	for _, tc := range []struct {
		name       string
		extractor  string
		embedding  []float32
		recording  []byte
		wantErr    string
		owner      int16 // the voice Identify takes as the owner's
		storedAxis int   // the stored embedding's axis afterwards
	}{
		{"another extractor, recording kept", "axis-old", []float32{1, 0, 0, 0}, axis2, "", 2, 2},
		{"another extractor, no recording", "axis-old", []float32{1, 0, 0, 0}, []byte{}, "record the profile again", 0, 0},
		{"this extractor", "axis", []float32{0, 1, 0}, axis2, "", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := store.Open(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			now := time.Now().UTC()
			if err := db.CreateUser(ctx, &appliance.User{ID: "u1", Name: "Ada", CreatedAt: now}); err != nil {
				t.Fatal(err)
			}
			if err := db.PutSpeechProfile(ctx, &appliance.SpeechProfile{UserID: "u1", Extractor: tc.extractor,
				Embedding: tc.embedding, Seconds: 1, Audio: tc.recording, CreatedAt: now, UpdatedAt: now}); err != nil {
				t.Fatal(err)
			}
			profiles := &speaker.Profiles{Store: db, Voices: db, Extractor: axisExtractor{}}
			h, err := profiles.Household(ctx, "u1")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("household: %v, want an error saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for voice := range int16(3) {
				id, err := h.Identify(ctx, []int16{voice})
				if err != nil {
					t.Fatal(err)
				}
				if id.Owner != (voice == tc.owner) {
					t.Errorf("voice %d: owner %v, want %v", voice, id.Owner, voice == tc.owner)
				}
			}
			stored, err := db.SpeechProfile(ctx, "u1")
			if err != nil {
				t.Fatal(err)
			}
			if stored.Extractor != "axis" || len(stored.Embedding) != 3 || stored.Embedding[tc.storedAxis] != 1 {
				t.Errorf("stored profile: %s %v, want axis's embedding along %d", stored.Extractor, stored.Embedding, tc.storedAxis)
			}
			if string(stored.Audio) != string(axis2) {
				t.Errorf("stored profile lost its recording")
			}
		})
	}
}
