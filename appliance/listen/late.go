package listen

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/punctuate"
)

// A route slower than the audio (PocketSphinx in loud noise, a busy box)
// does not end the session: it skips to live audio (stt.Config.Skipped),
// the client is told (service_status stt_behind, then ready), and the
// session transcribes each skipped stretch from its tape with the route's
// batch side, one at a time, as soon as a decoder is free, and puts the
// segments into the recording they were said in, in time order, with
// their speakers told as live segments' are. What is left when the
// session ends is transcribed after it. A recording processed before its
// late stretches were in is processed again once they all are.

// lateJob is a skipped stretch and the recording it was said in (empty
// when none was open: the stretch then goes where a flush would put it).
type lateJob struct {
	skip   stt.Skip
	convID string
	shift  float64 // stream seconds to the recording's seconds
}

// lateTimeout bounds one stretch's transcription, busy retries included.
const lateTimeout = 10 * time.Minute

// Live words wait for the skipped stretches before them (see
// lateQueue.holdsFrom) for three times the stretches' own length, at
// least lateHoldMin and at most lateHoldMax: transcribing a stretch takes
// a fraction of its length on an idle machine and, with live decoding
// beside it on a busy one, up to about three times that length (seen: a
// 15 s stretch heard 36 s after it ended at a load average of 12 on two
// cores), and a long stretch needs longer than a short one.
const (
	lateHoldMin    = 10 * time.Second
	lateHoldMax    = 2 * time.Minute
	lateHoldFactor = 3
)

// lateQueue runs a session's late transcriptions one at a time, in order.
type lateQueue struct {
	mu        sync.Mutex
	jobs      []lateJob
	running   bool
	since     time.Time     // when the worker last started from idle
	queued    int           // samples of the stretches added since then
	from      int           // stream sample where the earliest stretch not heard yet begins
	ended     bool          // the session is over: the last job cleans up
	abandoned bool          // the appliance is stopping: nothing is cleaned up
	drained   chan struct{} // closed when the running worker has no job left
	stale     []string      // recordings processed before their late stretches were in
	run       func(lateJob)
	settle    func(stale []string) // once no stretch is left: process stale again
	cleanup   func()
}

func newLateQueue(run func(lateJob), settle func([]string), cleanup func()) *lateQueue {
	return &lateQueue{run: run, settle: settle, cleanup: cleanup}
}

// staled notes that recording id got late segments after it was
// processed: once the queue is empty it is processed again, once.
func (q *lateQueue) staled(id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !slices.Contains(q.stale, id) {
		q.stale = append(q.stale, id)
	}
}

// add queues j and starts the worker if none runs.
func (q *lateQueue) add(j lateJob) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.jobs = append(q.jobs, j)
	if q.running {
		q.queued += j.skip.To - j.skip.From
		return
	}
	q.running, q.drained, q.since, q.from = true, make(chan struct{}), time.Now(), j.skip.From
	q.queued = j.skip.To - j.skip.From
	go q.work(q.drained)
}

// holdsFrom says from which stream sample live words should wait for
// the stretches being transcribed: the app shows segments in the order
// they arrive and never reorders them, so words said after a skipped
// stretch are sent after it, as long as the transcription has taken less
// than holdLimit (a route that stays behind, in loud noise, then sends
// live words late, not never). Words said before the stretch never wait.
func (q *lateQueue) holdsFrom(now time.Time) (from int, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.running || now.Sub(q.since) >= q.holdLimit() {
		return 0, false
	}
	return q.from, true
}

// holdLimit is how long live words may wait since the worker started:
// lateHoldFactor times the audio queued since then, within
// [lateHoldMin, lateHoldMax]. Under q.mu.
func (q *lateQueue) holdLimit() time.Duration {
	d := time.Duration(lateHoldFactor * float64(q.queued) / stt.SampleRate * float64(time.Second))
	return min(max(d, lateHoldMin), lateHoldMax)
}

func (q *lateQueue) work(drained chan struct{}) {
	for {
		q.mu.Lock()
		if len(q.jobs) == 0 && len(q.stale) > 0 && !q.abandoned {
			stale := q.stale
			q.stale = nil
			q.mu.Unlock()
			q.settle(stale)
			continue // a stretch may have come meanwhile
		}
		if len(q.jobs) == 0 {
			q.running = false
			ended := q.ended && !q.abandoned
			q.mu.Unlock()
			close(drained)
			if ended {
				q.cleanup()
			}
			return
		}
		j := q.jobs[0]
		q.jobs = q.jobs[1:]
		q.from = j.skip.From
		q.mu.Unlock()
		q.run(j)
	}
}

// pending reports whether stretches are waiting or being transcribed.
func (q *lateQueue) pending() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.running
}

// wait waits until no stretch is waiting, at most d; false when some
// still are.
func (q *lateQueue) wait(d time.Duration) bool {
	q.mu.Lock()
	if !q.running {
		q.mu.Unlock()
		return true
	}
	drained := q.drained
	q.mu.Unlock()
	select {
	case <-drained:
		return true
	case <-time.After(d):
		return false
	}
}

// end marks the session over: the tape goes once the last stretch is
// transcribed (now, when none is waiting).
func (q *lateQueue) end() {
	q.mu.Lock()
	q.ended = true
	running := q.running
	q.mu.Unlock()
	if !running {
		q.cleanup()
	}
}

// abandon takes the stretches not started yet off the queue and hands
// each to keep (the appliance is stopping).
func (q *lateQueue) abandon(keep func(lateJob)) {
	q.mu.Lock()
	jobs := q.jobs
	q.jobs = nil
	q.abandoned = true // the tape stays for keep (the next start removes it)
	q.mu.Unlock()
	for _, j := range jobs {
		keep(j)
	}
}

// behind is told by the audio path that the route started skipping.
func (s *session) behind() {
	s.mu.Lock()
	was := s.lagging
	s.lagging = true
	provider := s.provider
	s.mu.Unlock()
	if !was {
		s.srv.d.Logger.Info("speech route behind: skipping to live audio; the skipped audio is transcribed later",
			"user", s.user, "provider", provider)
		s.send(behind(provider))
	}
}

// skipped is the route's report of a stretch it skipped (from the route's
// goroutine): the route hears live audio again, and the stretch is queued.
func (s *session) skipped(sk stt.Skip) {
	s.mu.Lock()
	s.lagging = false
	j := lateJob{skip: sk}
	if s.conv != nil && !s.convEnded && s.conv.StartedAt != nil {
		j.convID, j.shift = s.conv.ID, s.streamStart.Sub(*s.conv.StartedAt).Seconds()
	}
	provider, reason := s.provider, s.readyReason
	s.mu.Unlock()
	s.send(ready(provider, reason))
	s.late.add(j)
}

// transcribeLate hears one skipped stretch and puts its segments into
// the recording; a stretch that cannot be heard is kept as a WAV in the
// spool directory, as a failed route's audio is.
func (s *session) transcribeLate(j lateJob) {
	ctx, cancel := context.WithTimeout(context.Background(), lateTimeout)
	defer cancel()
	pcm, err := s.audio.tape.read(j.skip.From, j.skip.To)
	if err != nil {
		s.srv.d.Logger.Error("read skipped audio", "user", s.user, "err", err)
		return
	}
	tr, err := s.hearLate(ctx, pcm)
	if err != nil {
		path := s.keepLate(j, pcm)
		s.srv.d.Logger.Warn("skipped audio not transcribed; kept", "user", s.user, "provider", s.providerName(),
			"from_s", float64(j.skip.From)/stt.SampleRate, "to_s", float64(j.skip.To)/stt.SampleRate, "path", path, "err", err)
		return
	}
	segs := lateSegments(tr, float64(j.skip.From)/stt.SampleRate, s.providerName())
	s.insertLate(ctx, j, segs)
	words := 0
	for _, seg := range segs {
		words += len(strings.Fields(seg.Text))
	}
	s.srv.d.Logger.Info("skipped audio transcribed", "user", s.user, "conversation_id", j.convID,
		"from_s", float64(j.skip.From)/stt.SampleRate, "to_s", float64(j.skip.To)/stt.SampleRate, "words", words)
}

// hearLate transcribes pcm with the route's batch side, waiting while
// all of its decoders are busy. A route passed over since the session
// opened on it (a whisper model that hears nothing: the session was handed
// to the next route) gives way to the first usable one.
func (s *session) hearLate(ctx context.Context, pcm []int16) (stt.Transcript, error) {
	batch := s.batch
	if u, ok := batch.(stt.Unusable); ok && u.Unusable() != nil && s.router != nil {
		batch = s.router.Batch(s.p.Language)
	}
	if batch == nil {
		return stt.Transcript{}, errors.New("the route has no batch side")
	}
	for {
		tr, err := batch.Transcribe(ctx, pcm, stt.Config{Language: s.p.Language, Channels: 1})
		if !errors.Is(err, stt.ErrBusy) {
			return tr, err
		}
		select {
		case <-ctx.Done():
			return stt.Transcript{}, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// keepLateAudio keeps a stretch that will not be transcribed (the
// appliance is stopping) as a WAV in the spool directory.
func (s *session) keepLateAudio(j lateJob) {
	pcm, err := s.audio.tape.read(j.skip.From, j.skip.To)
	if err != nil {
		s.srv.d.Logger.Error("read skipped audio", "user", s.user, "err", err)
		return
	}
	s.srv.d.Logger.Warn("skipped audio not transcribed; kept", "user", s.user, "from_s", float64(j.skip.From)/stt.SampleRate,
		"to_s", float64(j.skip.To)/stt.SampleRate, "path", s.keepLate(j, pcm))
}

// keepLate writes a stretch that could not be transcribed to the spool
// directory.
func (s *session) keepLate(j lateJob, pcm []int16) string {
	sp := &spool{pcm: pcm}
	path, _ := sp.save(s.srv.d.SpoolDir, orDefault(j.convID, "unknown")+fmt.Sprintf("-skipped-%d", j.skip.From), s.now())
	return path
}

// lateSegments turns a stretch's transcript into segments in stream time,
// shaped into sentences as live words are.
func lateSegments(tr stt.Transcript, from float64, provider string) []appliance.TranscriptSegment {
	var out []appliance.TranscriptSegment
	for _, seg := range tr.Segments {
		fields := strings.Fields(seg.Text)
		if len(fields) == 0 {
			continue
		}
		per := (seg.End - seg.Start) / float64(len(fields))
		ws := make([]stt.Word, len(fields))
		for i, f := range fields {
			ws[i] = stt.Word{Text: f, Start: from + seg.Start + float64(i)*per, End: from + seg.Start + float64(i+1)*per}
		}
		out = append(out, wordsToSegments(punctuate.Punctuate(ws), 0, provider)...)
	}
	return out
}

// insertLate puts a stretch's segments into its recording by time and,
// when that recording is still the one the client shows, sends them.
func (s *session) insertLate(ctx context.Context, j lateJob, segs []appliance.TranscriptSegment) {
	if len(segs) == 0 {
		return
	}
	s.flushMu.Lock()
	defer s.flushMu.Unlock()
	if j.convID == "" {
		// No recording was open when the route fell behind: the stretch
		// goes where a flush would put it.
		if err := s.recordingLocked(ctx, s.streamTime(segs)); err != nil {
			s.srv.d.Logger.Error("start a recording", "user", s.user, "err", err)
			return
		}
		s.mu.Lock()
		j.convID, j.shift = s.conv.ID, s.streamStart.Sub(*s.conv.StartedAt).Seconds()
		s.mu.Unlock()
	}
	s.diarizeLate(ctx, segs)
	s.mu.Lock()
	s.applyPeople(segs)
	s.mu.Unlock()
	out, stale, err := s.insertInto(ctx, j.convID, j.shift, segs)
	if err != nil {
		s.srv.d.Logger.Error("insert late segments", "user", s.user, "conversation_id", j.convID, "err", err)
		return
	}
	if stale {
		s.late.staled(j.convID)
	}
	s.mu.Lock()
	shown := s.conv != nil && s.conv.ID == j.convID && !s.convEnded
	s.mu.Unlock()
	if shown {
		s.send(out)
		s.rec.sentLate(out)
		s.queueTranslation(j.convID, out)
	}
}

// insertInto puts segs (stream seconds, shift from the recording's) into
// recording id where they were said, merged as live segments are, each
// with an id of its own; stale when the recording was already processed.
func (s *session) insertInto(ctx context.Context, id string, shift float64, segs []appliance.TranscriptSegment) ([]appliance.TranscriptSegment, bool, error) {
	for i := range segs {
		segs[i].Start = max(segs[i].Start+shift, 0)
		segs[i].End = max(segs[i].End+shift, segs[i].Start)
	}
	out := merge(nil, segs)
	for i := range out {
		out[i].ID = appliance.NewID()
	}
	stale, err := s.srv.d.Conversations.Insert(ctx, s.user, id, out)
	return out, stale, err
}

// restructure processes again the recordings that late segments reached
// after they were processed (the late queue calls it once they are all
// in).
func (s *session) restructure(stale []string) {
	for _, id := range stale {
		if err := s.srv.d.Conversations.Restructure(context.Background(), s.user, id); err != nil {
			s.srv.d.Logger.Warn("recording not processed again after its late segments", "user", s.user,
				"conversation_id", id, "err", err)
			continue
		}
		s.srv.d.Logger.Info("recording processed again with its late segments", "user", s.user, "conversation_id", id)
	}
}

func (s *session) providerName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.provider
}
