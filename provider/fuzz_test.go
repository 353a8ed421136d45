package provider

import (
	"math"
	"strings"
	"testing"
)

// FuzzParseVerdict fuzzes the judge verdict parser: it never panics, and
// an accepted verdict always has a finite score in [0,1] and a non-empty
// reason (docs/architecture.md, Semantics: anything else is a metric error, never a pass).
func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{
		`{"score": 0.8, "reason": "good"}`, "```json\n{\"score\": 1, \"reason\": \"r\"}\n```", `{"score": 1.5, "reason": "r"}`,
		`{"score": "1", "reason": "r"}`, `{"score": 1e400, "reason": "r"}`, `{"score": 0.5, "reason": ""}`, `{"score": 0.5}`,
		`[1]`, ``, "```", `{"score": 0.5, "reason": "a\ud800"}`, strings.Repeat(`{"a":`, 1000),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		score, reason, err := ParseVerdict(text)
		if err != nil {
			return
		}
		if math.IsNaN(score) || math.IsInf(score, 0) || score < 0 || score > 1 {
			t.Fatalf("accepted score %v from %q", score, text)
		}
		if strings.TrimSpace(reason) == "" {
			t.Fatalf("accepted an empty reason from %q", text)
		}
	})
}
