package dashboard

import (
	"encoding/json"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

func TestNewOutcomeView(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	for _, tc := range []struct {
		name    string
		details map[string]json.RawMessage
		errJSON string
		want    *outcomeView
	}{
		{"state", map[string]json.RawMessage{"check_type": raw(`"db_state"`), "database": raw(`"desk"`), "query": raw(`"SELECT 1"`), "args": raw(`["a"]`), "observed": raw(`0`)}, "",
			&outcomeView{Kind: "db_state", Database: "desk", Query: "SELECT 1", Args: `["a"]`, Observed: "0"}},
		{"verifier", map[string]json.RawMessage{"check_type": raw(`"verifier"`), "program": raw(`["python3", "verify.py"]`), "verdict": raw(`{"score": 0, "reason": "no row"}`)}, "",
			&outcomeView{Kind: "verifier", Program: "python3 verify.py", Observed: `{"reason":"no row","score":0}`}},
		{"errored state", nil, `{"kind": "state_query", "message": "m", "details": {"check_type": "db_state", "database": "desk", "query": "DELETE FROM t"}}`,
			&outcomeView{Kind: "db_state", Database: "desk", Query: "DELETE FROM t"}},
		{"other metric", map[string]json.RawMessage{"matched": raw(`1`)}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ed models.JSON
			if tc.errJSON != "" {
				ed = models.JSON(tc.errJSON)
			}
			got := newOutcomeView(tc.details, ed)
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
