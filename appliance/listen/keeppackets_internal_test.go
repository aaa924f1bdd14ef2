package listen

import (
	"bytes"
	"testing"
)

// TestPacketRing: the ring holds between one and two keepRing of the
// latest packets, byte for byte, and a recording starting at a sample
// gets the packets from there with up to 80 ms before.
func TestPacketRing(t *testing.T) {
	t.Parallel()
	var r packetRing
	var n int64
	pkt := func(i int) []byte { return bytes.Repeat([]byte{byte(i)}, 20+i%50) }
	for i := range 4000 { // 80 s of 20 ms packets
		r.add(pkt(i), n, 320)
		n += 320
		r.trim(n - keepRing)
		if held := n - r.start(n); held < min(n, keepRing) || held > 2*keepRing {
			t.Fatalf("after packet %d the ring holds %d samples", i, held)
		}
	}
	for _, c := range []struct {
		at            int64
		first         int // packet number
		preRoll, want int64
	}{
		{n - 320*100, 3896, 4 * 320, 104}, // 4 packets before primed
		{n, 3996, 4 * 320, 4},             // nothing yet but the priming
		{r.start(n), int(r.start(n) / 320), 0, int64(4000 - r.start(n)/320)},
	} {
		first, preRoll := r.from(c.at, opusPreRoll)
		if got := int(r.pkts[min(first, len(r.pkts)-1)].at / 320); first < len(r.pkts) && got != c.first || preRoll != c.preRoll {
			t.Errorf("from %d: packet %d, pre-roll %d; want %d, %d", c.at, got, preRoll, c.first, c.preRoll)
		}
		var count int64
		i := c.first
		r.each(first, func(p []byte, samples int) {
			if !bytes.Equal(p, pkt(i)) || samples != 320 {
				t.Fatalf("packet %d: %d bytes, %d samples", i, len(p), samples)
			}
			i++
			count++
		})
		if count != c.want {
			t.Errorf("from %d: %d packets written, want %d", c.at, count, c.want)
		}
	}
}
