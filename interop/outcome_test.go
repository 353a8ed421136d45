package interop_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/suite"
)

// TestOutcome_RailsVerifier: a verifier written in Ruby, an ActiveRecord
// model and a gem-style `evaluate :name do |output, context|` block
// (examples/rails_verifier), reads the rows the agent wrote in the
// application's PostgreSQL database and scores each case: the case whose
// agent wrote its row passes, the one whose agent only said so fails with
// the Ruby block's reason.
func TestOutcome_RailsVerifier(t *testing.T) {
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Fatalf("ruby is not installed: the Rails interop test needs `apt-get install -y ruby ruby-activerecord ruby-pg`")
	}
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.db.ExecContext(ctx, "CREATE TABLE orders (id bigserial PRIMARY KEY, ref text NOT NULL, item text NOT NULL, quantity integer NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("ruby", "orders_verifier.rb"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("APP_DATABASE_URL", e.rubyURL)
	t.Setenv("APP_SCHEMA", e.schema)
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.json")
	cmd, _ := json.Marshal([]string{"ruby", script})
	if err := os.WriteFile(path, []byte(`{"suite": "Orders", "agent": {"name": "Desk"},
	  "evaluators": {"order_written": {"type": "verifier", "params": {"command": `+string(cmd)+`, "worker": true, "env": ["APP_DATABASE_URL", "APP_SCHEMA"]}}},
	  "questions": [
	    {"id": "written", "question": "Order 3 mugs.", "metadata": {"quantity": 3}},
	    {"id": "claimed", "question": "Order 2 lamps.", "metadata": {"quantity": 2}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	desk := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		if q.ID == "written" {
			if _, err := e.db.ExecContext(ctx, "INSERT INTO orders (ref, item, quantity) VALUES (?, 'mugs', 3)", q.ID); err != nil {
				return agent.Response{}, err
			}
		}
		return agent.Response{Output: json.RawMessage(`"Order placed."`)}, nil
	})
	run, err := runner.Execute(ctx, s, desk, runner.ExecOptions{Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		passed bool
		reason string
	}{
		"written": {true, "order written: 3 x mugs"},
		"claimed": {false, "no order row for claimed"},
	}
	for _, c := range run.Cases {
		m := c.Metrics[0]
		w := want[c.CaseID]
		if m.Score == nil || m.Passed != w.passed || m.Reason == nil || !strings.HasPrefix(*m.Reason, w.reason) {
			reason := ""
			if m.Reason != nil {
				reason = *m.Reason
			}
			t.Errorf("%s: passed=%v score=%v reason=%q error=%s, want passed=%v reason %q", c.CaseID, m.Passed, m.Score, reason, m.ErrorDetails, w.passed, w.reason)
		}
	}
}
