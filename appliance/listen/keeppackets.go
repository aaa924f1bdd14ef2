package listen

// packetRing is a session's last Opus packets, end to end in one buffer
// (a packet is tens of bytes: one allocation each would cost more than
// the packet).
type packetRing struct {
	data []byte
	pkts []ringPacket
}

type ringPacket struct {
	at       int64 // stream sample the packet starts at
	off, n   int32 // its bytes in data
	duration int32 // samples it decodes to
}

// add appends a packet starting at stream sample at.
func (r *packetRing) add(pkt []byte, at int64, samples int) {
	r.pkts = append(r.pkts, ringPacket{at: at, off: int32(len(r.data)), n: int32(len(pkt)), duration: int32(samples)})
	r.data = append(r.data, pkt...)
}

// trim forgets the packets that end before sample keep once half the
// ring is that old, so that the copying is paid rarely.
func (r *packetRing) trim(keep int64) {
	if len(r.pkts) == 0 || keep <= 0 {
		return
	}
	mid := r.pkts[len(r.pkts)/2]
	if mid.at+int64(mid.duration) > keep {
		return
	}
	drop := 0
	for drop < len(r.pkts) && r.pkts[drop].at+int64(r.pkts[drop].duration) <= keep {
		drop++
	}
	cut := r.pkts[drop].off
	if drop == len(r.pkts) {
		cut = int32(len(r.data))
	}
	// A ring that held a long pause and now holds a pre-roll gives the
	// pause's memory back.
	if len(r.data)-int(cut) < cap(r.data)/4 {
		r.data = append([]byte(nil), r.data[cut:]...)
		r.pkts = append([]ringPacket(nil), r.pkts[drop:]...)
	} else {
		r.data = append(r.data[:0], r.data[cut:]...)
		r.pkts = append(r.pkts[:0], r.pkts[drop:]...)
	}
	for i := range r.pkts {
		r.pkts[i].off -= cut
	}
}

// start is the stream sample of the oldest packet held (n, the samples
// seen, when none is).
func (r *packetRing) start(n int64) int64 {
	if len(r.pkts) == 0 {
		return n
	}
	return r.pkts[0].at
}

// from is the index of the packet to write first so that the packets from
// sample at on are preceded by up to preRoll samples of the ones before,
// and how many samples that pre-roll is.
func (r *packetRing) from(at, preRoll int64) (int, int64) {
	i := len(r.pkts)
	for i > 0 && r.pkts[i-1].at >= at {
		i--
	}
	first := i
	for first > 0 && at-r.pkts[first-1].at <= preRoll {
		first--
	}
	if first == len(r.pkts) {
		return first, 0
	}
	return first, max(0, at-r.pkts[first].at)
}

// each calls write with each packet from index first on.
func (r *packetRing) each(first int, write func(pkt []byte, samples int)) {
	for _, p := range r.pkts[first:] {
		write(r.data[p.off:p.off+p.n], int(p.duration))
	}
}
