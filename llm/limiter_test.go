package llm

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header string
		want   time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{"0", 0},
		{"-2", 0},
		{"soon", 0},
		{now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
	} {
		h := http.Header{}
		if tc.header != "" {
			h.Set("Retry-After", tc.header)
		}
		if got := RetryAfter(h, now); got != tc.want {
			t.Errorf("Retry-After %q: got %s, want %s", tc.header, got, tc.want)
		}
	}
}

// fakeClock is a clock tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestLimiter_CutsToTheMeasuredRateAndProbesUp(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	l := NewLimiter()
	l.now = clock.now
	ctx := context.Background()
	// 40 successes over one second, unpaced.
	for range 40 {
		if err := l.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		clock.t = clock.t.Add(25 * time.Millisecond)
		l.Observe(false, 0, true)
	}
	if st := l.Stats(); st.Pace != 0 || st.Rate != 40 {
		t.Fatalf("before any 429: %+v, want unpaced at 40 req/s", st)
	}
	l.Wait(ctx)
	l.Observe(true, time.Second, false)
	st := l.Stats()
	if want := 40 * cutFactor; st.Pace != want || st.RateLimited != 1 {
		t.Fatalf("after a 429: %+v, want pace %.1f", st, want)
	}
	// A second 429 within the same second does not cut again.
	l.Wait(ctx)
	l.Observe(true, time.Second, false)
	if got := l.Stats().Pace; got != st.Pace {
		t.Errorf("second 429 in the same second cut the pace to %.1f", got)
	}
	// Successes raise the pace by increasePerSecond each.
	l.Wait(ctx)
	l.Observe(false, 0, true)
	if got, want := l.Stats().Pace, st.Pace+increasePerSecond; got != want {
		t.Errorf("pace after a success %.2f, want %.2f", got, want)
	}
	if l.limit < 1 {
		t.Errorf("concurrency limit %.2f, want at least 1", l.limit)
	}
}

func TestLimiter_LongRetryAfterPausesEveryone(t *testing.T) {
	l := NewLimiter()
	l.Wait(context.Background())
	l.Observe(true, time.Hour, false)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := l.Wait(ctx); err == nil {
		t.Error("Wait returned during an hour-long Retry-After pause")
	}
	var nilLimiter *Limiter
	if err := nilLimiter.Wait(context.Background()); err != nil {
		t.Errorf("nil limiter: %v", err)
	}
	nilLimiter.Observe(true, time.Hour, false)
}
