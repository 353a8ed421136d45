package provider

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
)

// tokenBucket answers like a provider that allows rate requests per second
// (a bucket of rate tokens, refilled continuously) and answers 429 with
// Retry-After in whole seconds above it.
type tokenBucket struct {
	mu      sync.Mutex
	rate    float64
	tokens  float64
	last    time.Time
	limited atomic.Int64
}

func (b *tokenBucket) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	b.mu.Lock()
	now := time.Now()
	b.tokens = math.Min(b.rate, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	ok := b.tokens >= 1
	if ok {
		b.tokens--
	}
	wait := (1 - b.tokens) / b.rate
	b.mu.Unlock()
	if !ok {
		b.limited.Add(1)
		w.Header().Set("Retry-After", fmt.Sprint(int(math.Ceil(wait))))
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests"}}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, replyBody(llm.ProviderOpenAI, `{"reason":"ok","score":1}`))
}

// TestLimiter_AgainstRateLimitedProvider sends the same calls from 8
// workers to a provider allowing 50 requests per second, once through a
// shared Limiter and once without one (the baseline, in the same test):
// with the limiter no call fails and fewer requests are refused.
func TestLimiter_AgainstRateLimitedProvider(t *testing.T) {
	const calls, workers, rate = 200, 8, 50.0
	type outcome struct {
		failed  int
		limited int64
		elapsed time.Duration
	}
	run := func(limiter *llm.Limiter) outcome {
		b := &tokenBucket{rate: rate, last: time.Now()} // starts empty: no free burst
		srv := httptest.NewServer(b)
		defer srv.Close()
		s := llm.Settings{Provider: llm.ProviderOpenAI, Model: "judge-model", BaseURL: srv.URL + "/v1", Timeout: 5 * time.Second}
		o := testOptions()
		o.Limiter = limiter
		c, err := NewClient(s, o)
		if err != nil {
			t.Fatal(err)
		}
		var failed atomic.Int64
		jobs := make(chan int)
		var wg sync.WaitGroup
		start := time.Now()
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range jobs {
					if _, err := c.Generate(context.Background(), "system", "user", true); err != nil {
						failed.Add(1)
					}
				}
			}()
		}
		for i := range calls {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		return outcome{failed: int(failed.Load()), limited: b.limited.Load(), elapsed: time.Since(start)}
	}
	with, without := run(llm.NewLimiter()), run(nil)
	for name, o := range map[string]outcome{"with the limiter": with, "without (baseline)": without} {
		t.Logf("%s: %d calls in %s = %.1f req/s (%.2f× the allowed %.0f), %d failed, %d requests answered 429",
			name, calls, o.elapsed.Round(time.Millisecond), calls/o.elapsed.Seconds(), calls/o.elapsed.Seconds()/rate, rate, o.failed, o.limited)
	}
	if with.failed != 0 {
		t.Errorf("%d calls failed with the limiter, want 0", with.failed)
	}
	if with.limited >= without.limited {
		t.Errorf("the limiter left %d 429s against %d without it; want fewer", with.limited, without.limited)
	}
}
