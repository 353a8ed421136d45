package main

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/llm"
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
			part += fmt.Sprintf("; %d rate-limited, %s", l.st.RateLimited, paceText(l.st.Pace))
		}
		part += ")"
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// paceText says how the limiter paces: "paced at 47.5/s", "paced at one
// request per 25 s" below 0.1/s (where one decimal would read 0.0/s), or
// "not paced yet" while too few requests succeeded to measure a pace.
func paceText(pace float64) string {
	switch {
	case pace <= 0:
		return "not paced yet"
	case pace < 0.1:
		return fmt.Sprintf("paced at one request per %.0f s", 1/pace)
	default:
		return fmt.Sprintf("paced at %.1f/s", pace)
	}
}
