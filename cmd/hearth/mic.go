package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/cmd/hearth/internal/mic"
)

// runDevices lists the capture devices `hearth listen --mic --device` can use.
func runDevices(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("devices", stderr)
	backend := fs.String("mic-backend", "auto", "audio system: auto, alsa, pulseaudio, jack, coreaudio, wasapi, dsound, oss or null (a silent test device)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	devs, err := mic.Devices(*backend)
	if err != nil {
		return err
	}
	if len(devs) == 0 {
		fmt.Fprintln(stderr, "no capture device found")
		return nil
	}
	for _, d := range devs {
		mark := ""
		if d.Default {
			mark = "\t(default)"
		}
		fmt.Fprintf(stdout, "%s%s\n", d.Name, mark)
	}
	return nil
}

// micFlags are listen's microphone options.
type micFlags struct {
	on       bool
	device   string
	backend  string
	duration time.Duration
}

func (m *micFlags) register(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
	DurationVar(*time.Duration, string, time.Duration, string)
}) {
	fs.BoolVar(&m.on, "mic", false, "stream the box's microphone instead of a file (hearth devices lists them)")
	fs.StringVar(&m.device, "device", "", "with --mic: the capture device whose name contains this (default: the system's default)")
	fs.StringVar(&m.backend, "mic-backend", "auto", "with --mic: audio system (auto, alsa, pulseaudio, jack, coreaudio, wasapi, dsound, oss, null)")
	fs.DurationVar(&m.duration, "duration", 0, "with --mic: stop after this much audio (default: until interrupted)")
}

// open starts the microphone as an audio source that ends after the
// duration's worth of samples, or when ctx ends.
func (m *micFlags) open(ctx context.Context) (audio.Source, error) {
	c, err := mic.Open(m.backend, m.device)
	if err != nil {
		return nil, err
	}
	go func() {
		<-ctx.Done()
		c.Close()
	}()
	limit := -1
	if m.duration > 0 {
		limit = int(m.duration.Seconds() * mic.Rate)
	}
	return &limitedSource{Source: c, left: limit}, nil
}

// limitedSource ends a live source after a number of samples (-1: never).
type limitedSource struct {
	audio.Source
	left int
}

func (l *limitedSource) Read(dst []int16) (int, error) {
	if l.left == 0 {
		return 0, io.EOF
	}
	if l.left > 0 && len(dst) > l.left {
		dst = dst[:l.left]
	}
	n, err := l.Source.Read(dst)
	if l.left > 0 {
		l.left -= n
	}
	return n, err
}

func (l *limitedSource) Close() error {
	l.Source.Close()
	return nil
}
