package llm

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limiter adapts the calls to one provider to the rate it allows. Every
// worker acquires it before a request (Wait) and reports the outcome after
// (Observe), so the whole worker pool slows down together when the
// provider answers 429 and speeds up again when it stops:
//
//   - Retry-After: the request that got the 429 waits for it (Client);
//     one of sharedPauseFrom or more also pauses everyone, since the
//     others would only collect more 429s.
//   - Rate (additive increase, multiplicative decrease): until the first
//     429 requests are not paced at all. A 429 sets the pace to 95% of the
//     requests that succeeded in the last second (at most one cut per
//     second, as one overshoot brings several 429s; none while fewer than
//     minSamples succeeded, which measures nothing), and every success
//     then raises it by about 5% per second, probing for more.
//   - Concurrency (the same rule over the worker pool): a 429 halves how
//     many requests may be in flight, every success adds 1/limit, so the
//     limit grows by one per round of successful requests, up to the pool.
//
// A nil *Limiter does nothing, so callers need no checks. It is safe for
// concurrent use.
type Limiter struct {
	mu       sync.Mutex
	now      func() time.Time
	rate     float64   // requests per second; 0: not paced
	next     time.Time // earliest start of the next request under the pace
	pause    time.Time // no request starts before (Retry-After)
	cut      time.Time // last decrease
	limit    float64   // requests in flight allowed; 0: no limit
	inFlight int
	wake     chan struct{} // closed and replaced when a slot frees up
	done     []time.Time   // completions in the last rateWindow, oldest first
	limited  int           // 429s observed
	total    int           // successes observed
	first    time.Time     // first Wait
}

// sharedPauseFrom is the shortest Retry-After that pauses every worker. A
// shorter one (the header's one-second granularity makes "1" common) only
// delays the request that received it: the pace cut keeps the others
// from collecting more 429s, and pausing everyone for a second at every
// probe would waste a second each time.
const sharedPauseFrom = 2 * time.Second

// rateWindow is the window over which Rate and the pace estimate count.
const rateWindow = time.Second

// Pace constants: a cut keeps cutFactor of the measured success rate; each
// success adds increasePerSecond of the pace per second; minRate is a floor.
const (
	cutFactor         = 0.95
	increasePerSecond = 0.05
	minRate           = 0.5
	minSamples        = 5 // successes in the window needed to measure a pace
)

// NewLimiter returns a limiter that does not limit until a 429 arrives.
func NewLimiter() *Limiter {
	return &Limiter{now: time.Now, wake: make(chan struct{})}
}

// Wait blocks until a request may start: after any Retry-After pause, at
// the next slot of the pace and with a free slot under the concurrency
// limit. It returns ctx's error if ctx ends first. Every successful Wait
// must be followed by one Observe.
func (l *Limiter) Wait(ctx context.Context) error {
	if l == nil {
		return nil
	}
	for {
		l.mu.Lock()
		if l.limit > 0 && float64(l.inFlight) >= l.limit {
			wake := l.wake
			l.mu.Unlock()
			select {
			case <-wake:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		now := l.now()
		if l.first.IsZero() {
			l.first = now
		}
		start := now
		if l.pause.After(start) {
			start = l.pause
		}
		if l.rate > 0 {
			if l.next.After(start) {
				start = l.next
			}
			l.next = start.Add(time.Duration(float64(time.Second) / l.rate))
		}
		l.inFlight++
		l.mu.Unlock()
		if d := start.Sub(now); d > 0 {
			if err := Sleep(ctx, d); err != nil {
				l.release()
				return err
			}
		}
		return nil
	}
}

// release frees an in-flight slot and wakes waiting workers.
func (l *Limiter) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight--
	close(l.wake)
	l.wake = make(chan struct{})
}

// Observe reports the outcome of a request started after Wait:
// rateLimited for a 429, with the provider's Retry-After (0 if none).
// Other failures neither slow down nor speed up the pace.
func (l *Limiter) Observe(rateLimited bool, retryAfter time.Duration, ok bool) {
	if l == nil {
		return
	}
	defer l.release()
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.trim(now)
	switch {
	case rateLimited:
		l.limited++
		if until := now.Add(retryAfter); retryAfter >= sharedPauseFrom && until.After(l.pause) {
			l.pause = until
		}
		if now.Sub(l.cut) < rateWindow {
			return
		}
		l.cut = now
		l.limit = max(1, float64(l.inFlight)/2)
		if len(l.done) < minSamples {
			// Too few successes to measure what the provider allows (e.g.
			// the very first requests met an exhausted quota): the
			// Retry-After waits and the halved concurrency slow us down;
			// a pace guessed from nothing would crawl for minutes.
			return
		}
		window := rateWindow
		if since := now.Sub(l.first); since < window {
			window = max(since, 10*time.Millisecond) // the first second: count over the time we have
		}
		measured := max(minRate, float64(len(l.done))/window.Seconds())
		if l.rate == 0 || measured < l.rate {
			l.rate = measured
		}
		l.rate = max(minRate, l.rate*cutFactor)
	case ok:
		l.total++
		l.done = append(l.done, now)
		if l.rate > 0 { // about rate successes a second, so +increasePerSecond×rate a second
			l.rate += increasePerSecond
		}
		if l.limit > 0 {
			l.limit += 1 / l.limit
		}
	}
}

// trim drops completions older than the window.
func (l *Limiter) trim(now time.Time) {
	i := 0
	for i < len(l.done) && now.Sub(l.done[i]) > rateWindow {
		i++
	}
	l.done = l.done[i:]
}

// Stats is what a progress line shows about a limiter.
type Stats struct {
	// Rate is the successful requests per second over the last second.
	Rate float64
	// Average is the successful requests per second since the first request.
	Average float64
	// Pace is the requests per second the limiter allows; 0: not paced.
	Pace float64
	// RateLimited counts the 429s observed so far.
	RateLimited int
}

// Stats returns the limiter's current figures (zero for a nil limiter).
func (l *Limiter) Stats() Stats {
	if l == nil {
		return Stats{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.trim(now)
	st := Stats{Rate: float64(len(l.done)) / rateWindow.Seconds(), Pace: l.rate, RateLimited: l.limited}
	if since := now.Sub(l.first).Seconds(); l.total > 0 && since > 0 {
		st.Average = float64(l.total) / since
	}
	return st
}

// RetryAfter reads a Retry-After header: delay-seconds or an HTTP-date,
// relative to now. It returns 0 when the header is absent, unparsable or
// in the past.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 || secs > 24*3600 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// Sleep waits d, or until ctx is done and then returns its error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
