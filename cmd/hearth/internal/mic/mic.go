// Package mic captures a room microphone on the box (16 kHz mono 16-bit,
// what the appliance's recognisers take) through github.com/gen2brain/malgo
// (miniaudio, compiled in; it loads ALSA, PulseAudio, CoreAudio or WASAPI at
// run time, so no audio library is needed to build).
package mic

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gen2brain/malgo"

	"github.com/hearth-appliance/hearth/appliance/audio"
)

// Rate is the capture rate: the appliance's recognisers' own.
const Rate = audio.Rate

// Backend names the audio systems to try: "auto" (the platform's usual
// order) or one of the names below; "null" is a silent virtual device for
// tests and headless boxes.
var backends = map[string]malgo.Backend{
	"null": backendNull, "alsa": malgo.BackendAlsa, "pulseaudio": malgo.BackendPulseaudio,
	"jack": malgo.BackendJack, "coreaudio": malgo.BackendCoreaudio, "wasapi": malgo.BackendWasapi,
	"dsound": malgo.BackendDsound, "oss": malgo.BackendOss,
}

// backendNull is miniaudio's ma_backend_null. malgo's enumeration omits
// ma_backend_custom, which comes just before it, so malgo.BackendNull names
// the custom backend and fails with "No backend".
const backendNull malgo.Backend = malgo.BackendWebaudio + 2

// BackendNames lists what Backend accepts besides "auto".
func BackendNames() []string {
	return []string{"alsa", "pulseaudio", "jack", "coreaudio", "wasapi", "dsound", "oss", "null"}
}

func initContext(backend string) (*malgo.AllocatedContext, error) {
	var list []malgo.Backend
	if backend != "" && backend != "auto" {
		b, ok := backends[backend]
		if !ok {
			return nil, fmt.Errorf("audio backend %q: want auto or one of %s", backend, strings.Join(BackendNames(), ", "))
		}
		list = []malgo.Backend{b}
	}
	ctx, err := malgo.InitContext(list, malgo.ContextConfig{}, nil)
	if err != nil {
		return nil, fmt.Errorf("audio backend %s: %w", backend, err)
	}
	return ctx, nil
}

// Device is one capture device.
type Device struct {
	Name    string
	Default bool
}

// Devices lists the capture devices the backend sees.
func Devices(backend string) ([]Device, error) {
	ctx, err := initContext(backend)
	if err != nil {
		return nil, err
	}
	defer func() { ctx.Uninit(); ctx.Free() }()
	infos, err := ctx.Devices(malgo.Capture)
	if err != nil {
		return nil, fmt.Errorf("list capture devices: %w", err)
	}
	out := make([]Device, 0, len(infos))
	for i := range infos {
		out = append(out, Device{Name: infos[i].Name(), Default: infos[i].IsDefault != 0})
	}
	return out, nil
}

// Capture is a running microphone. It is an audio source: Read blocks
// until samples arrive and returns io.EOF once Close was called or the
// device stopped.
type Capture struct {
	ctx    *malgo.AllocatedContext
	dev    *malgo.Device
	name   string
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []int16
	closed bool
	// A reader that falls this far behind loses the oldest audio rather
	// than holding the box's memory.
	max int
}

// Open starts capturing from the device whose name contains device
// (case-insensitive; empty is the default device).
func Open(backend, device string) (*Capture, error) {
	ctx, err := initContext(backend)
	if err != nil {
		return nil, err
	}
	c := &Capture{ctx: ctx, max: Rate * 30}
	c.cond = sync.NewCond(&c.mu)
	cfg := malgo.DefaultDeviceConfig(malgo.Capture)
	cfg.Capture.Format = malgo.FormatS16
	cfg.Capture.Channels = 1
	cfg.SampleRate = Rate
	if device != "" {
		infos, err := ctx.Devices(malgo.Capture)
		if err != nil {
			c.free()
			return nil, fmt.Errorf("list capture devices: %w", err)
		}
		var names []string
		for i := range infos {
			names = append(names, infos[i].Name())
			if strings.Contains(strings.ToLower(infos[i].Name()), strings.ToLower(device)) {
				cfg.Capture.DeviceID = infos[i].ID.Pointer()
				c.name = infos[i].Name()
				break
			}
		}
		if cfg.Capture.DeviceID == nil {
			c.free()
			return nil, fmt.Errorf("no capture device matches %q (have: %s)", device, strings.Join(names, "; "))
		}
	}
	c.dev, err = malgo.InitDevice(ctx.Context, cfg, malgo.DeviceCallbacks{Data: c.onData, Stop: c.onStop})
	if err != nil {
		c.free()
		return nil, fmt.Errorf("open capture device: %w", err)
	}
	if err := c.dev.Start(); err != nil {
		c.dev.Uninit()
		c.free()
		return nil, fmt.Errorf("start capture: %w", err)
	}
	return c, nil
}

func (c *Capture) onData(_, in []byte, frames uint32) {
	c.mu.Lock()
	for i := 0; i+1 < len(in) && i/2 < int(frames); i += 2 {
		c.buf = append(c.buf, int16(binary.LittleEndian.Uint16(in[i:])))
	}
	if over := len(c.buf) - c.max; over > 0 {
		c.buf = append(c.buf[:0], c.buf[over:]...)
	}
	c.mu.Unlock()
	c.cond.Broadcast()
}

func (c *Capture) onStop() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cond.Broadcast()
}

// Read implements the appliance's audio source.
func (c *Capture) Read(dst []int16) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.buf) == 0 && !c.closed {
		c.cond.Wait()
	}
	if len(c.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(dst, c.buf)
	c.buf = append(c.buf[:0], c.buf[n:]...)
	return n, nil
}

// Duration is 0: a microphone has no end.
func (c *Capture) Duration() time.Duration { return 0 }

// Format names the device.
func (c *Capture) Format() string {
	name := c.name
	if name == "" {
		name = "default device"
	}
	return fmt.Sprintf("microphone %s pcm16 %d Hz mono", name, Rate)
}

// Close stops capturing; a blocked Read returns io.EOF.
func (c *Capture) Close() error {
	c.mu.Lock()
	if c.dev == nil {
		c.mu.Unlock()
		return errors.New("capture already closed")
	}
	dev := c.dev
	c.dev = nil
	c.closed = true
	c.mu.Unlock()
	c.cond.Broadcast()
	dev.Uninit()
	c.free()
	return nil
}

func (c *Capture) free() {
	c.ctx.Uninit()
	c.ctx.Free()
}
