package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestSuiteExport_FirstGoRunBaselinedByRubyRun exports a Ruby-written run
// of the support example as a Go suite: the file validates, and the first
// Go run of it (the regressed agent) is baselined by the Ruby run and
// fails the regression gate with exit 1.
func TestSuiteExport_FirstGoRunBaselinedByRubyRun(t *testing.T) {
	support, err := filepath.Abs(filepath.Join("..", "..", "examples", "support"))
	if err != nil {
		t.Fatal(err)
	}
	url, rubyID := rubySupportRun(t, filepath.Join(support, "suite.json"))
	agentName := "SupportAgent"

	// The suite's evaluator names are no evaluator types: without a
	// mapping no question keeps a metric, and nothing is written.
	dir := t.TempDir()
	file := filepath.Join(dir, "suite.json")
	code, _, stderr := evalrun(t, "--database-url", url, "suite", "export", rubyID.String(), "-o", file)
	if code != exitInvalid || !strings.Contains(stderr, "--evaluator") {
		t.Fatalf("export without a mapping: exit %d, want %d naming --evaluator\n%s", code, exitInvalid, stderr)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("a failed export wrote %s", file)
	}
	// Mapping one of them exports the other as unported, with advice.
	code, out, stderr := evalrun(t, "--database-url", url, "suite", "export", rubyID.String(), "--evaluator", "exact=exact_match")
	if code != exitOK || !strings.Contains(stderr, `warning: metric "lookup" not exported`) || !strings.Contains(out, `"exact"`) {
		t.Fatalf("export with one mapping: exit %d\n%s%s", code, out, stderr)
	}

	code, _, stderr = evalrun(t, "--database-url", url, "suite", "export", rubyID.String(), "-o", file,
		"--evaluator", "exact=exact_match", "--evaluator", "lookup=action_group", "--agent-command", "sh agent.sh")
	if code != exitOK {
		t.Fatalf("export: exit %d\n%s", code, stderr)
	}
	if code, out, stderr := evalrun(t, "validate", file); code != exitOK {
		t.Fatalf("validate the exported suite: exit %d\n%s%s", code, out, stderr)
	}
	// Point the agent at the example's directory and environment, as a
	// user edits the agent section; the definition stays as exported.
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]json.RawMessage
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	s["agent"] = mustMarshal(t, map[string]any{"name": agentName, "command": []string{"sh", "agent.sh"},
		"dir": support, "env": []string{"AGENT_REVISION"}})
	if err := os.WriteFile(file, mustMarshal(t, s), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Setenv("AGENT_REVISION", "regressed")
	code, out, stderr = evalrun(t, "--database-url", url, "run", file, "--fail-on-regression")
	if code != exitFailed || !strings.Contains(out, "Baseline: "+rubyID.String()) || !strings.Contains(out, "new_failure") {
		t.Fatalf("first Go run of the exported suite: exit %d, want %d with baseline %s\n%s%s", code, exitFailed, rubyID, out, stderr)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSuiteExport_RailsLayoutAndConversation exports a run as the Rails
// guide does, from the application's root into a suites/ folder that does
// not exist yet: the folder is created, agent.dir points back at the root
// so bin/rails resolves, a conversation keeps its turns, and the file
// passes validate.
func TestSuiteExport_RailsLayoutAndConversation(t *testing.T) {
	url := testdb.SQLiteURL(t)
	src := filepath.Join(t.TempDir(), "conv.json")
	os.WriteFile(src, []byte(`{"suite": "Conv", "agent": {"name": "A", "command": ["sh", "-c", "cat >/dev/null; echo ok"]},
	  "questions": [{"id": "c", "turns": ["hi", {"content": "again", "checks": [{"type": "contains", "value": "ok"}]}],
	    "expected_answer": "ok", "minimum_scores": {"exact_match": 1}}]}`), 0o644)
	if code, out, stderr := evalrun(t, "--database-url", url, "run", src); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
	}
	run := onlyRun(t, url)

	root := t.TempDir() // the Rails application
	os.MkdirAll(filepath.Join(root, "bin"), 0o755)
	os.WriteFile(filepath.Join(root, "bin", "rails"), []byte("#!/bin/sh\necho ok\n"), 0o755)
	t.Chdir(root)
	code, _, stderr := evalrun(t, "--database-url", url, "suite", "export", run.ID.String(), "-o", "suites/conv.json",
		"--agent-command", "bin/rails runner script/agent.rb")
	if code != exitOK {
		t.Fatalf("export into a missing suites/: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "turn2.contains") {
		t.Errorf("the left-out turn check is not named:\n%s", stderr)
	}
	var s struct {
		Agent     struct{ Dir string }
		Questions []struct {
			Turns    []string
			Question json.RawMessage
		}
	}
	b, err := os.ReadFile(filepath.Join(root, "suites", "conv.json"))
	if err != nil || json.Unmarshal(b, &s) != nil {
		t.Fatalf("read the export: %v\n%s", err, b)
	}
	if s.Agent.Dir != ".." || len(s.Questions) != 1 || strings.Join(s.Questions[0].Turns, "|") != "hi|again" || s.Questions[0].Question != nil {
		t.Errorf("exported suite:\n%s", b)
	}
	if code, out, stderr := evalrun(t, "validate", "suites/conv.json"); code != exitOK {
		t.Fatalf("validate the export: exit %d\n%s%s", code, out, stderr)
	}
}
