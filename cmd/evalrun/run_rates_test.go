package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentevals/agentevals/llm"
)

func TestRateNote(t *testing.T) {
	if got := rateNote(nil, llm.NewLimiter()); got != "" {
		t.Errorf("no requests: %q, want nothing", got)
	}
	judge := llm.NewLimiter()
	for range 3 {
		judge.Wait(context.Background())
		judge.Observe(false, 0, true)
	}
	judge.Wait(context.Background())
	judge.Observe(true, time.Second, false)
	got := rateNote(llm.NewLimiter(), judge)
	for _, want := range []string{"judge 3.0 req/s (avg ", "1 rate-limited, paced at "} {
		if !strings.Contains(got, want) {
			t.Errorf("rateNote = %q, want it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "agent") {
		t.Errorf("rateNote = %q names an agent that made no request", got)
	}
}
