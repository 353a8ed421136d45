package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
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
	for _, want := range []string{"judge 3.0 req/s (avg ", "1 rate-limited, not paced yet)"} {
		if !strings.Contains(got, want) {
			t.Errorf("rateNote = %q, want it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "agent") {
		t.Errorf("rateNote = %q names an agent that made no request", got)
	}
}

// TestPaceText: no pace is never shown as "paced at 0.0/s".
func TestPaceText(t *testing.T) {
	for pace, want := range map[float64]string{
		0: "not paced yet", 0.04: "paced at one request per 25 s", 47.5: "paced at 47.5/s",
	} {
		if got := paceText(pace); got != want {
			t.Errorf("paceText(%v) = %q, want %q", pace, got, want)
		}
	}
}
