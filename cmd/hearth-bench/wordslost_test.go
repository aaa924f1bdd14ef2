package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestLostWordsIsAMultisetDifference(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ref, heard string
		want       int
	}{
		{"the car needs new tires", "The car needs new tires.", 0},
		{"the car needs new tires", "The car needs new", 1},
		{"the car needs new tires", "", 5},
		{"the car needs new tires", "The car needs new tyres.", 1},
		{"the cat and the dog", "the cat and dog", 1}, // "the" twice, heard once
		{"the cat and dog", "the the cat and dog", 0}, // extra words are not lost ones
		{"i'll call grandma", "I'll call Grandma!", 0},
		{"", "anything", 0},
	}
	for _, tt := range tests {
		if got := lostWords(wordList(tt.ref), wordList(tt.heard)); got != tt.want {
			t.Errorf("lostWords(%q, %q) = %d, want %d", tt.ref, tt.heard, got, tt.want)
		}
	}
}

func TestWordsLostFlags(t *testing.T) {
	t.Parallel()
	cfg, err := parseFlags([]string{"-scenarios", "words-lost"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.wordsLost || !cfg.listenOnly || cfg.wordsSentences != 100 || cfg.wordsSessions != 4 {
		t.Fatalf("defaults: %+v", cfg)
	}
	for _, args := range [][]string{
		{"-scenarios", "words-lost", "-words-sentences", "0"},
		{"-scenarios", "words-lost", "-words-sentences", "100000"},
		{"-scenarios", "words-lost", "-words-sessions", "0"},
	} {
		if _, err := parseFlags(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v parsed", args)
		}
	}
	// Every sentence is dealt an ending and a codec; the first hundred
	// give each ending 25 and each ending's codecs 12 or 13.
	counts := map[string]int{}
	for i := range 100 {
		counts[wordsEndings[i%len(wordsEndings)]+"/"+wordsCodecs[(i/len(wordsEndings))%len(wordsCodecs)]]++
	}
	for k, n := range counts {
		if n < 12 || n > 13 {
			t.Errorf("%s: %d recordings", k, n)
		}
	}
	if len(counts) != len(wordsEndings)*len(wordsCodecs) {
		t.Errorf("%d ending/codec pairs: %v", len(counts), counts)
	}
}

// TestWordsLostScenarioAgainstHearth runs the words-lost scenario on one
// sentence per ending against a real hearth serve: every recording is
// read back and scored (how many words a build loses is what the scenario
// reports, not what this test checks).
func TestWordsLostScenarioAgainstHearth(t *testing.T) {
	for _, tool := range []string{"ffmpeg", "text2wave", "sox"} {
		needTool(t, tool)
	}
	if testing.Short() {
		t.Skip("builds hearth")
	}
	bin := filepath.Join(t.TempDir(), "hearth")
	build := exec.Command("go", "build", "-o", bin, "../hearth")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("build hearth: %v", err)
	}
	cfg, err := parseFlags([]string{"-hearth", bin, "-scenarios", "words-lost", "-words-sentences", "4", "-words-sessions", "2"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), cfg, &stdout, &stderr); err != nil {
		if strings.Contains(err.Error(), "503") {
			if os.Getenv("HEARTH_REQUIRE_E2E_TOOLS") != "" {
				t.Fatalf("this build has no speech route (make test builds PocketSphinx in): %v", err)
			}
			t.Skipf("this build has no speech route: %v", err)
		}
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	md := stdout.String()
	for _, e := range wordsEndings {
		row := tableRow(md, "**"+e+"**")
		if len(row) != 11 || row[1] != "1" || row[10] != "0" {
			t.Errorf("ending %s: row %v\n%s\n%s", e, row, md, stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), "after SIGTERM (exit status 0)") {
		t.Errorf("no clean exit after SIGTERM:\n%s", stderr.String())
	}
}
