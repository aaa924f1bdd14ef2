package api

import (
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// Policy is a named request budget per key (or per user) and window.
type Policy struct {
	Name   string
	Limit  int
	Window time.Duration
}

// Policies of the developer API and of the ID-token surfaces, with the
// reference's names and numbers. Config.RateLimitBoost
// scales them all.
var (
	PolicyDevConversationsWrite = Policy{"dev:conversations", 25, time.Hour}
	PolicyDevReadsTotal         = Policy{"dev:conversation_reads_total", 60, time.Hour}
	PolicyDevListRead           = Policy{"dev:conversations_read", 60, time.Hour}
	PolicyDevDetailRead         = Policy{"dev:conversation_detail_read", 60, time.Hour}
	PolicyDevTranscriptRead     = Policy{"dev:conversation_transcript_read", 25, time.Hour}
	PolicyFromSegments          = Policy{"conversations:from-segments", 30, time.Hour}
	PolicyDevMemoriesWrite      = Policy{"dev:memories", 120, time.Hour}
	PolicyDevMemoriesBatch      = Policy{"dev:memories_batch", 15, time.Hour}
	PolicyDevMemoriesRead       = Policy{"dev:memories_read", 120, time.Hour}
	PolicyDevActionItemsRead    = Policy{"dev:action_items_read", 120, time.Hour}
	PolicyDevActionItemsWrite   = Policy{"dev:action_items_write", 120, time.Hour}
	PolicyDevGoalsRead          = Policy{"dev:goals_read", 120, time.Hour}
	PolicyDevGoalsWrite         = Policy{"dev:goals_write", 120, time.Hour}
)

// Limiter counts requests in fixed windows that start at a key's first
// request. It is in memory: a restart forgets the counts, which is the
// right trade for a home appliance.
type Limiter struct {
	mu      sync.Mutex
	boost   float64
	windows map[string]*window
	ops     int
	now     func() time.Time
}

type window struct {
	start time.Time
	count int
	span  time.Duration
}

// NewLimiter returns a limiter whose limits are multiplied by boost; a boost
// of 0 disables limiting.
func NewLimiter(boost float64, now func() time.Time) *Limiter {
	return &Limiter{boost: boost, windows: map[string]*window{}, now: now}
}

// Denial says which policy refused a request and when to retry.
type Denial struct {
	Policy     Policy
	Limit      int
	RetryAfter time.Duration
}

// Allow charges one request to each policy for subject, all or none: a
// request refused by one policy is not counted against the others.
func (l *Limiter) Allow(subject string, policies ...Policy) *Denial {
	if l == nil || l.boost == 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.ops++
	if l.ops%4096 == 0 {
		l.prune(now)
	}
	ws := make([]*window, len(policies))
	for i, p := range policies {
		k := p.Name + "\x00" + subject
		w := l.windows[k]
		if w == nil || now.Sub(w.start) >= w.span {
			w = &window{start: now, span: p.Window}
			l.windows[k] = w
		}
		limit := l.limit(p)
		if w.count >= limit {
			return &Denial{Policy: p, Limit: limit, RetryAfter: w.start.Add(w.span).Sub(now)}
		}
		ws[i] = w
	}
	for _, w := range ws {
		w.count++
	}
	return nil
}

func (l *Limiter) limit(p Policy) int {
	return max(1, int(math.Ceil(float64(p.Limit)*l.boost)))
}

func (l *Limiter) prune(now time.Time) {
	for k, w := range l.windows {
		if now.Sub(w.start) >= w.span {
			delete(l.windows, k)
		}
	}
}

// rateLimited answers 429 in the reference's shape, with Retry-After.
func rateLimited(c echo.Context, d *Denial) error {
	secs := int(math.Ceil(d.RetryAfter.Seconds()))
	secs = max(secs, 1)
	h := c.Response().Header()
	h.Set("Retry-After", strconv.Itoa(secs))
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("X-RateLimit-Remaining", "0")
	return appliance.Errorf(appliance.ERATELIMIT, "Rate limit exceeded. Try again in %ds.", secs)
}
