package audio

// pcm decodes 16-bit little-endian PCM. A message may end mid-sample (the
// app forwards BLE notifications as they come); the odd byte waits for the
// next message.
type pcm struct {
	channels int
	carry    []byte
	mono     []int16
	rs       *Resampler
}

func newPCM(rate, channels int) *pcm {
	return &pcm{channels: channels, rs: NewResampler(rate, Rate)}
}

func (p *pcm) Decode(dst []int16, frame []byte) ([]int16, error) {
	buf := frame
	if len(p.carry) > 0 {
		buf = append(p.carry, frame...)
		p.carry = nil
	}
	step := 2 * p.channels
	whole := len(buf) / step * step
	if whole < len(buf) {
		p.carry = append([]byte(nil), buf[whole:]...)
	}
	p.mono = p.mono[:0]
	for i := 0; i < whole; i += step {
		s := int32(int16(uint16(buf[i]) | uint16(buf[i+1])<<8))
		if p.channels == 2 {
			s = (s + int32(int16(uint16(buf[i+2])|uint16(buf[i+3])<<8))) / 2
		}
		p.mono = append(p.mono, int16(s))
	}
	return p.rs.Process(dst, p.mono), nil
}

func (p *pcm) Close() error { return nil }
