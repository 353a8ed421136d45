package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/suite"
)

// benchSuites writes the same 500-question suite twice: each question's
// expected substring as a named suite evaluator referenced from
// minimum_scores (the only way before inline checks), and as an inline
// check.
func benchSuites(b *testing.B) (named, inline string) {
	const n = 500
	var evs, qsNamed, qsInline []string
	for i := range n {
		evs = append(evs, fmt.Sprintf(`"has_%d": {"type": "contains", "params": {"value": "answer %d"}}`, i, i))
		qsNamed = append(qsNamed, fmt.Sprintf(`{"id": "q%d", "question": "q%d", "minimum_scores": {"has_%d": 1}}`, i, i, i))
		qsInline = append(qsInline, fmt.Sprintf(`{"id": "q%d", "question": "q%d", "checks": [{"type": "contains", "value": "answer %d"}]}`, i, i, i))
	}
	dir := b.TempDir()
	named = testfile.Write(b, dir, "named.json", `{"suite": "B", "agent": {"name": "A"}, "evaluators": {`+strings.Join(evs, ",")+
		`}, "defaults": [], "questions": [`+strings.Join(qsNamed, ",")+`]}`)
	inline = testfile.Write(b, dir, "inline.json", `{"suite": "B", "agent": {"name": "A"}, "questions": [`+strings.Join(qsInline, ",")+`]}`)
	return named, inline
}

// BenchmarkLoad_Checks compares loading the two forms of one suite.
func BenchmarkLoad_Checks(b *testing.B) {
	named, inline := benchSuites(b)
	for _, bc := range []struct{ name, path string }{{"named-evaluators", named}, {"inline-checks", inline}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := suite.Load(bc.path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExecute_Checks compares running the two forms (a Go agent
// answering at once, so scoring and bookkeeping dominate).
func BenchmarkExecute_Checks(b *testing.B) {
	named, inline := benchSuites(b)
	a := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		out, _ := json.Marshal("answer " + strings.TrimPrefix(q.ID, "q"))
		return agent.Response{Output: out}, nil
	})
	for _, bc := range []struct{ name, path string }{{"named-evaluators", named}, {"inline-checks", inline}} {
		b.Run(bc.name, func(b *testing.B) {
			s, err := suite.Load(bc.path)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Execute(context.Background(), s, a, ExecOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
