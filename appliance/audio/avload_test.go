//go:build libavcodec && libavformat && cgo && linux

package audio_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// TestLibavLoadsOnFirstUse runs in a child process, whose maps start clean:
// libavcodec and libavformat are mapped only once an AAC stream or a
// container file needs them.
func TestLibavLoadsOnFirstUse(t *testing.T) {
	if os.Getenv("HEARTH_AVLOAD_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLibavLoadsOnFirstUse$", "-test.v")
		cmd.Env = append(os.Environ(), "HEARTH_AVLOAD_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestLibavLoadsOnFirstUse") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	mapped := func(lib string) bool {
		maps, err := os.ReadFile("/proc/self/maps")
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(string(maps), "/"+lib+".so")
	}
	for _, lib := range []string{"libavutil", "libavcodec", "libavformat"} {
		if mapped(lib) {
			t.Fatalf("%s is mapped before any use", lib)
		}
	}
	d, err := audio.NewDecoder(audio.Format{Codec: audio.AAC, SampleRate: 16000, Channels: 1})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if !mapped("libavcodec") || mapped("libavformat") {
		t.Fatalf("after an AAC decoder: libavcodec mapped %v (want true), libavformat %v (want false)", mapped("libavcodec"), mapped("libavformat"))
	}
	if !audio.ReadsContainers() || !mapped("libavformat") {
		t.Fatal("libavformat is not loaded for containers")
	}
}
