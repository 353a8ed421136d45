package suite

import (
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"strings"
	"testing"
)

// TestLoad_CheckOptionsTwoWays accepts an inline check written like an
// evaluator (options under "params") as the same check as the flat form,
// same digest; and says how to write options where they are misplaced.
func TestLoad_CheckOptionsTwoWays(t *testing.T) {
	const head = `{"suite": "S", "agent": {"name": "A", "command": ["sh", "a.sh"]}, `
	flat := mustLoad(t, head+`"questions": [{"id": "q", "question": "q", "checks": [{"type": "contains", "value": "Paris", "threshold": 1}]}]}`)
	nested := mustLoad(t, head+`"questions": [{"id": "q", "question": "q", "checks": [{"type": "contains", "params": {"value": "Paris"}, "threshold": 1}]}]}`)
	df, err1 := flat.Digest([]string{"contains"})
	dn, err2 := nested.Digest([]string{"contains"})
	if err1 != nil || err2 != nil || df != dn {
		t.Errorf("digest flat %s, nested %s (%v, %v): want the same check", df, dn, err1, err2)
	}
	tests := []struct{ name, body, want string }{
		{"both ways", `"questions": [{"id": "q", "question": "q", "checks": [{"type": "contains", "value": "a", "params": {"value": "b"}}]}]}`,
			`$.questions[0].checks[0].params.value: given both flat and under "params": write the options flat in an inline check`},
		{"params not an object", `"questions": [{"id": "q", "question": "q", "checks": [{"type": "contains", "params": "Paris"}]}]}`,
			`$.questions[0].checks[0].params: want an object of the check's options (or write them flat in an inline check`},
		{"evaluator written flat", `"evaluators": {"paris": {"type": "contains", "value": "Paris"}}, "questions": [{"id": "q", "question": "q"}]}`,
			`$.evaluators.paris.value: unknown key (want one of type, params, threshold): an evaluator's options go under "params"`},
		{"expected_actions not an array", `"questions": [{"id": "q", "question": "q", "expected_actions": {"name": "x"}, "checks": [{"type": "action_group"}]}]}`,
			`$.questions[0].expected_actions: want an array of actions such as [{"group": "policies", "name": "lookup_policy", "arguments": {"topic": "returns"}}]`},
		{"expected action with a bad key", `"questions": [{"id": "q", "question": "q", "expected_actions": [{"group": "g", "tool": "x"}], "checks": [{"type": "action_group"}]}]}`,
			`$.questions[0].expected_actions[0].tool: unknown key (want one of group, name, arguments): an expected action is {"group": "policies"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(testfile.Write(t, t.TempDir(), "suite.json", head+tt.body))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load = %v\nwant %s", err, tt.want)
			}
		})
	}
}
