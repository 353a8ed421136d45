package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/suite"
)

// TestExecute_NULCharactersAreSaved runs agents whose stderr and metadata
// hold NUL characters (which PostgreSQL refuses in jsonb) and saves the run.
func TestExecute_NULCharactersAreSaved(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "meta", "question": "1", "expected_answer": "ok"}, {"id": "stderr", "question": "2", "expected_answer": "ok"}]}`)
	cmd := mustAgent(t, shAgent(t, suite.AgentCommand, `cat >/dev/null; printf 'bad\000byte' >&2; exit 1`), adapter.Options{})
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		if q.ID == "stderr" {
			return cmd.Answer(ctx, q)
		}
		return agent.Response{Output: json.RawMessage(`"ok"`), Metadata: map[string]any{"note\x00": "a\x00b"}}, nil
	})
	run := mustExecute(t, s, a, ExecOptions{})
	db := testdb.Postgres(t)
	if err := db.InsertRun(context.Background(), run); err != nil {
		t.Fatalf("InsertRun: %v", err)
	}
	got, err := db.GetRun(context.Background(), run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if meta := string(got.Cases[0].ResponseMetadata); !strings.Contains(meta, "a\uFFFDb") {
		t.Errorf("response_metadata = %s", meta)
	}
	if details := string(got.Cases[1].ErrorDetails); !strings.Contains(details, "bad\uFFFDbyte") {
		t.Errorf("error_details = %s", details)
	}
}
