package mic

import (
	"strings"
	"testing"
	"time"
)

// miniaudio's null backend is a real capture device that yields silence
// in real time: enough to check enumeration, the format and the pacing.
func TestNullBackend(t *testing.T) {
	devs, err := Devices("null")
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) == 0 || !strings.Contains(strings.ToLower(devs[0].Name), "null") {
		t.Fatalf("null backend devices: %+v", devs)
	}
	c, err := Open("null", devs[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Format(), "16000 Hz mono") {
		t.Fatalf("format %q", c.Format())
	}
	start := time.Now()
	got := 0
	buf := make([]int16, 320)
	for got < Rate/2 {
		n, err := c.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range buf[:n] {
			if s != 0 {
				t.Fatalf("the null device is not silent: %d", s)
			}
		}
		got += n
	}
	// Half a second of audio cannot arrive much faster than half a second.
	if el := time.Since(start); el < 300*time.Millisecond {
		t.Fatalf("%d samples in %v: not captured in real time", got, el)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Read(buf); err == nil {
		// drained buffer then EOF
		if _, err = c.Read(buf); err == nil {
			t.Fatal("Read after Close did not end")
		}
	}
}

func TestOpenRefusals(t *testing.T) {
	if _, err := Open("gramophone", ""); err == nil || !strings.Contains(err.Error(), "want auto or one of") {
		t.Fatalf("unknown backend: %v", err)
	}
	if _, err := Open("null", "no such microphone"); err == nil || !strings.Contains(err.Error(), "no capture device matches") {
		t.Fatalf("unknown device: %v", err)
	}
}
