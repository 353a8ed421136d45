package main

import (
	"fmt"
	"strings"

	"github.com/agentevals/agentevals/llm"
)

// rateNote describes the effective request rates of the agent's and the
// judge's providers, for the progress line: "judge 48.0 req/s (avg 47.1;
// 3 rate-limited, paced at 47.5/s)", the rate over the last second first;
// "" when neither made a request yet.
func rateNote(a, judge *llm.Limiter) string {
	var parts []string
	for _, l := range []struct {
		name string
		st   llm.Stats
	}{{"agent", a.Stats()}, {"judge", judge.Stats()}} {
		if l.st.Average == 0 && l.st.RateLimited == 0 {
			continue
		}
		part := fmt.Sprintf("%s %.1f req/s (avg %.1f", l.name, l.st.Rate, l.st.Average)
		if l.st.RateLimited > 0 {
			part += fmt.Sprintf("; %d rate-limited, paced at %.1f/s", l.st.RateLimited, l.st.Pace)
		}
		part += ")"
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}
