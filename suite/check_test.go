package suite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuite_Check finds what NewAgent and the scorers would refuse,
// without building the agent: Load accepts these suites.
func TestSuite_Check(t *testing.T) {
	tests := []struct {
		name, agent, judge, want string
	}{
		{"command agent", `{"name": "A", "command": ["true"]}`, "", ""},
		{"name only", `{"name": "A"}`, "", "$.agent: want a command, worker, http or llm agent"},
		{"llm agent, unknown provider", `{"name": "A", "llm": {"provider": "x", "model": "m"}}`, "", `$.agent.llm: unknown provider "x"`},
		{"judge, negative max_tokens", `{"name": "A", "command": ["true"]}`, `{"provider": "ollama", "model": "m", "max_tokens": -1}`,
			"$.judge: max tokens -1 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			judge := ""
			if tt.judge != "" {
				judge = `"judge": ` + tt.judge + ","
			}
			path := filepath.Join(t.TempDir(), "suite.json")
			body := `{"suite": "S", "agent": ` + tt.agent + `, ` + judge + `"questions": [{"question": "q", "expected_answer": "a", "minimum_scores": {"exact_match": 1}}]}`
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			err = s.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Check = %v, want a *ValidationError with %q", err, tt.want)
			}
			if tt.judge != "" {
				return
			}
			if s.ValidateAgent() == nil {
				t.Errorf("CheckAgent = nil: it must refuse what Check refuses (NewAgent's side: TestNewAgent_RefusesWhatCheckAgentRefuses)")
			}
		})
	}
}
