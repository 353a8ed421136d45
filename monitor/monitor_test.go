package monitor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/suite"
)

func write(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "monitor.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoad_Refuses(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"unknown key", `{"monitor":"m","agent":"a","tracez":{},"checks":[{"type":"error_spans"}]}`, "$.tracez: unknown key"},
		{"unknown filter key", `{"monitor":"m","agent":"a","traces":{"span":"x"},"checks":[{"type":"error_spans"}]}`, "$.traces.span: unknown key"},
		{"no checks", `{"monitor":"m","agent":"a"}`, "$.checks: missing"},
		{"empty checks", `{"monitor":"m","agent":"a","checks":[]}`, "$.checks: want a non-empty array"},
		{"no name", `{"agent":"a","checks":[{"type":"error_spans"}]}`, "$.monitor: missing"},
		{"sample out of range", `{"monitor":"m","agent":"a","sample":1.5,"checks":[{"type":"error_spans"}]}`, "$.sample: want a share"},
		{"max_cases zero", `{"monitor":"m","agent":"a","max_cases":0,"checks":[{"type":"error_spans"}]}`, "$.max_cases: want a whole number"},
		{"spend cap negative", `{"monitor":"m","agent":"a","max_judge_spend":"-1","checks":[{"type":"error_spans"}]}`, "$.max_judge_spend: want a positive number of USD"},
		{"spend cap not a number", `{"monitor":"m","agent":"a","max_judge_spend":"$2","checks":[{"type":"error_spans"}]}`, "$.max_judge_spend: want a positive number of USD"},
		{"needs an expected answer", `{"monitor":"m","agent":"a","checks":[{"type":"correctness"}]}`,
			`$.checks: check "correctness" needs the question's expected_answer`},
		{"needs expected actions", `{"monitor":"m","agent":"a","checks":[{"type":"action_group"}]}`, "reference-free checks only"},
		{"unknown check param", `{"monitor":"m","agent":"a","checks":[{"type":"tool_used","tool":"x"}]}`, `$.checks[0]: tool_used check`},
		{"not an object", `[1]`, "$: want an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(t, tc.body)
			_, err := Load(p)
			var verr *suite.ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("want a validation error, got %v", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Errorf("want %q naming %s, got:\n%v", tc.want, p, err)
			}
		})
	}
}

func TestLoad_ReferenceFreeChecks(t *testing.T) {
	p := write(t, `{"monitor":"shop","agent":"shop","traces":{"service":"shop","attributes":{"deployment":"eu"}},"sample":0.25,"max_cases":50,"max_judge_spend":"2.50",
		"checks":[{"type":"error_spans"},{"type":"tool_used","tools":["lookup"]},{"type":"step_budget","max":4},{"type":"task_completion"},{"type":"contains","value":"order"}]}`)
	m, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "shop" || m.Sample != 0.25 || m.MaxCases != 50 || m.MaxJudgeSpend != "2.50" || m.Traces.Attributes["deployment"] != "eu" {
		t.Errorf("loaded %+v", m)
	}
	got := strings.Join(m.Check.Calculated(true), ",")
	if got != "contains,error_spans,step_budget,task_completion,tool_used" {
		t.Errorf("metrics %s", got)
	}
	if !m.Check.NeedsJudge() {
		t.Error("task_completion needs a judge")
	}
}
