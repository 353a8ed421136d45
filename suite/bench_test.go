package suite

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchSuite writes a suite of n questions (as bench/overhead does) and loads it.
func benchSuite(b *testing.B, n int) *Suite {
	b.Helper()
	qs := make([]any, n)
	for i := range qs {
		qs[i] = map[string]any{"id": fmt.Sprintf("q%d", i), "question": fmt.Sprintf("Question number %d?", i), "expected_answer": "ok"}
	}
	data, err := json.Marshal(map[string]any{"suite": "bench", "agent": map[string]any{"name": "a", "command": []string{"true"}},
		"evaluators": map[string]any{"exact": map[string]any{"type": "exact_match"}}, "questions": qs})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "suite.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkDigest5000 is the digest of a 5,000-question suite computed
// anew each time: each digest is of another copy of the suite, which does
// not own the kept digest.
func BenchmarkDigest5000(b *testing.B) {
	s := benchSuite(b, 5000)
	calc := s.Calculated(false)
	b.ResetTimer()
	for b.Loop() {
		cp := *s
		if _, err := cp.Digest(calc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDigest5000_Kept is the digest asked again of the same suite
// for the same calculated metrics (evalrun run's second digest).
func BenchmarkDigest5000_Kept(b *testing.B) {
	s := benchSuite(b, 5000)
	calc := s.Calculated(false)
	if _, err := s.Digest(calc); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Digest(calc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad5000 loads a 5,000-question suite.
func BenchmarkLoad5000(b *testing.B) {
	s := benchSuite(b, 5000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Load(s.Path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlan5000 is the planned run of a 5,000-question suite whose
// digest is already kept (Execute's plan after the baseline lookup's).
func BenchmarkPlan5000(b *testing.B) {
	s := benchSuite(b, 5000)
	calc := s.Calculated(false)
	s.Plan(calc)
	b.ResetTimer()
	for b.Loop() {
		s.Plan(calc)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/5000, "ns/case")
}
