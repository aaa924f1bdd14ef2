package api

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
)

func TestCueTime(t *testing.T) {
	for _, tc := range []struct {
		sec       float64
		srt, webv string
	}{
		{0, "00:00:00,000", "00:00:00.000"},
		{1.5, "00:00:01,500", "00:00:01.500"},
		{59.9996, "00:01:00,000", "00:01:00.000"}, // rounds to the millisecond, carrying
		{61.042, "00:01:01,042", "00:01:01.042"},
		{3723.004, "01:02:03,004", "01:02:03.004"},
		{360000, "100:00:00,000", "100:00:00.000"},
		{-0.2, "00:00:00,000", "00:00:00.000"},
	} {
		if got := cueTime(tc.sec, ','); got != tc.srt {
			t.Errorf("cueTime(%v, ',') = %q, want %q", tc.sec, got, tc.srt)
		}
		if got := cueTime(tc.sec, '.'); got != tc.webv {
			t.Errorf("cueTime(%v, '.') = %q, want %q", tc.sec, got, tc.webv)
		}
	}
}

func TestSubtitleFormats(t *testing.T) {
	segs := []stt.Segment{{Start: 0.25, End: 2.5, Text: "hello world"}, {Start: 3, End: 65.125, Text: "good night"}}
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"srt", srt(segs), "1\n00:00:00,250 --> 00:00:02,500\nhello world\n\n2\n00:00:03,000 --> 00:01:05,125\ngood night\n\n"},
		{"vtt", vtt(segs), "WEBVTT\n\n00:00:00.250 --> 00:00:02.500\nhello world\n\n00:00:03.000 --> 00:01:05.125\ngood night\n\n"},
		{"srt empty", srt(nil), ""},
		{"vtt empty", vtt(nil), "WEBVTT\n\n"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestLanguageName(t *testing.T) {
	for code, want := range map[string]string{"en": "english", "en-US": "english", "fr": "french", "xx": "xx", "": ""} {
		if got := languageName(code); got != want {
			t.Errorf("languageName(%q) = %q, want %q", code, got, want)
		}
	}
}
