package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// bucket is a provider's rate limit: a token bucket holding up to rate
// tokens, refilled at rate per second.
type bucket struct {
	mu       sync.Mutex
	rate     float64
	tokens   float64
	last     time.Time
	accepted int
	limited  int
}

// take spends a token, or reports how long until one is there.
func (b *bucket) take(now time.Time) (ok bool, wait time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tokens = math.Min(b.rate, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		b.accepted++
		return true, 0
	}
	b.limited++
	return false, time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}

// TestRun_JudgeRateLimit runs a 500-question judged suite against a judge
// that allows rate requests per second and answers 429 with Retry-After
// above it (whole seconds, or an HTTP-date for every other 429): every
// call must succeed in the end, and the judge's throughput must be within
// 1.2× of the allowed rate.
func TestRun_JudgeRateLimit(t *testing.T) {
	const questions, rate = 500, 50.0
	b := &bucket{rate: rate, tokens: rate, last: time.Now()}
	judge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		now := time.Now()
		if ok, wait := b.take(now); !ok {
			secs := int(math.Ceil(wait.Seconds()))
			if b.limited%2 == 0 {
				w.Header().Set("Retry-After", fmt.Sprint(secs))
			} else {
				w.Header().Set("Retry-After", now.Add(time.Duration(secs+1)*time.Second).UTC().Format(http.TimeFormat))
			}
			http.Error(w, `{"error":{"message":"Rate limit reached","type":"requests"}}`, http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":"{\"reason\":\"Polite.\",\"score\":0.9}"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}`)
	}))
	defer judge.Close()
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, `{"output":"Thank you for asking."}`)
	}))
	defer a.Close()
	dir := t.TempDir()
	var qs []string
	for i := range questions {
		qs = append(qs, fmt.Sprintf(`{"id":"q%d","question":"Question %d?","minimum_scores":{"courteous":0.5}}`, i, i))
	}
	s := filepath.Join(dir, "suite.json")
	doc := fmt.Sprintf(`{"suite":"Rate limited","version":"1","agent":{"name":"HTTP","url":%q},
 "judge":{"provider":"openai","model":"judge","base_url":%q},
 "evaluators":{"courteous":{"type":"llm_judge","params":{"rubric":"The answer is courteous."}}},
 "questions":[%s]}`, a.URL, judge.URL+"/v1", strings.Join(qs, ","))
	if err := os.WriteFile(s, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", "test-key")
	url := testdb.SQLiteURL(t)
	start := time.Now()
	code, out, errOut := evalrun(t, "--database-url", url, "run", s, "-j", "8")
	elapsed := time.Since(start)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, tail(out), tail(errOut))
	}
	run := getRun(t, url, latestRunID(t, url))
	var sum struct {
		Passed     int `json:"passed"`
		JudgeUsage struct {
			Calls, Errors, Attempts int
		} `json:"judge_usage"`
	}
	if err := json.Unmarshal(run.Summary, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Passed != questions || sum.JudgeUsage.Errors != 0 || sum.JudgeUsage.Calls != questions {
		t.Errorf("passed %d of %d, judge calls %d with %d errors; want every call to succeed", sum.Passed, questions, sum.JudgeUsage.Calls, sum.JudgeUsage.Errors)
	}
	throughput := float64(questions) / elapsed.Seconds()
	t.Logf("allowed %.0f req/s: %d judge calls in %s = %.1f req/s (%.2f× the allowed rate); %d requests answered 429, %d attempts in all",
		rate, questions, elapsed.Round(time.Millisecond), throughput, throughput/rate, b.limited, sum.JudgeUsage.Attempts)
	if ratio := rate / throughput; ratio > 1.2 || ratio < 1/1.2 {
		t.Errorf("throughput %.1f req/s is not within 1.2× of the allowed %.0f req/s", throughput, rate)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "judge ") || !strings.Contains(last, "req/s") {
		t.Errorf("the progress lines do not show the judge's rate:\n%s", tail(errOut))
	} else {
		t.Logf("last progress line: %s", last)
	}
}

// tail is the end of a long output, for failure messages.
func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}
