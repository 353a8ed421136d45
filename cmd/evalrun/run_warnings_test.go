package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_CoverageWarnings runs suites without a judge: the exit code
// stays as specified, and stderr says after the summary what was not
// checked, prominently when nothing was.
func TestRunCmd_CoverageWarnings(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; echo ok\n"), 0o644)
	tests := []struct {
		name, evaluators, questions string
		code                        int
		want                        []string // stderr lines, in order
	}{
		{"only LLM metrics", "", `[{"id": "q", "question": "q", "expected_answer": "ok"}]`, exitOK, []string{
			"warning: NOTHING WAS EVALUATED: no metric was calculated on any question (1 question), so this run checked nothing; exit 0 does not claim quality",
			"warning: no judge configured: semantic_accuracy, answer_relevancy not calculated on 1 question; exit 0 does not claim quality; give --judge-model (or a judge section in the suite) to calculate them",
		}},
		{"exact passes, semantic_accuracy not calculated", `"evaluators": {"exact": {"type": "exact_match"}},`,
			`[{"id": "q", "question": "q", "expected_answer": "ok", "minimum_scores": {"exact": 1, "semantic_accuracy": 0.9}}]`, exitOK, []string{
				"warning: no judge configured: semantic_accuracy not calculated on 1 question (it shows passed on its other checks alone); exit 0 does not claim quality; give --judge-model",
			}},
		{"some not evaluated, one failed", `"evaluators": {"exact": {"type": "exact_match"}},`,
			`[{"id": "a", "question": "a", "minimum_scores": {"answer_relevancy": 0.9}},
			  {"id": "b", "question": "b", "minimum_scores": {"answer_relevancy": 0.9}},
			  {"id": "c", "question": "c", "expected_answer": "no", "minimum_scores": {"exact": 1}}]`, exitFailed, []string{
				"warning: 2 of 3 questions not evaluated (no metric calculated): they count neither as passed nor as failed",
				"warning: no judge configured: answer_relevancy not calculated on 2 questions; give --judge-model",
			}},
		{"deterministic only", `"evaluators": {"exact": {"type": "exact_match"}},`,
			`[{"id": "q", "question": "q", "expected_answer": "ok"}]`, exitOK, nil},
	}
	url := testdb.SQLiteURL(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := filepath.Join(dir, "suite"+string(rune('a'+i))+".json")
			os.WriteFile(s, []byte(`{"suite": "Coverage `+tt.name+`", "agent": {"name": "A", "command": ["sh", "agent.sh"]}, `+
				tt.evaluators+` "questions": `+tt.questions+`}`), 0o644)
			code, out, stderr := evalrun(t, "--database-url", url, "run", s)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, stderr)
			}
			var got []string
			for _, line := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(line, "warning:") {
					got = append(got, line)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("warnings = %q, want %d lines like %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("warning %d = %q\nwant prefix   %q", i, got[i], w)
				}
			}
			if strings.Contains(stderr, "Passing questions") || !strings.Contains(out, "Passing questions") {
				t.Errorf("the summary belongs on stdout:\n%s", out)
			}
		})
	}
}
