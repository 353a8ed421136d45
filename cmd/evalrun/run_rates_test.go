package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"agentevals/judges"
)

func TestRateNote(t *testing.T) {
	if got := rateNote(nil, judges.NewLimiter()); got != "" {
		t.Errorf("no requests: %q, want nothing", got)
	}
	judge := judges.NewLimiter()
	for range 3 {
		judge.Wait(context.Background())
		judge.Observe(false, 0, true)
	}
	judge.Wait(context.Background())
	judge.Observe(true, time.Second, false)
	got := rateNote(judges.NewLimiter(), judge)
	for _, want := range []string{"judge 3.0 req/s (avg ", "1 rate-limited, paced at "} {
		if !strings.Contains(got, want) {
			t.Errorf("rateNote = %q, want it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "agent") {
		t.Errorf("rateNote = %q names an agent that made no request", got)
	}
}
