package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// newestRun reads the newest run in dbURL with its cases.
func newestRun(t *testing.T, dbURL string) *models.Run {
	t.Helper()
	db, err := models.Open(context.Background(), dbURL, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run, err := db.GetRun(context.Background(), uuid.MustParse(latestRunID(t, dbURL)))
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	return run
}

// transcriptOf decodes the case's transcript.
func transcriptOf(t *testing.T, c *models.CaseResult) *models.Transcript {
	t.Helper()
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil || meta.Transcript == nil {
		t.Fatalf("no transcript in %s (%v)", c.ResponseMetadata, err)
	}
	return meta.Transcript
}

// TestConversation_BadInput: a malformed conversation is refused before
// any agent call, exit 2, with the file, the JSON path and what was
// expected.
func TestConversation_BadInput(t *testing.T) {
	for _, tc := range []struct{ name, question, path, want string }{
		{"empty turns", `{"id": "q", "turns": []}`, "$.questions[0].turns", "want at least one user turn"},
		{"turns not an array", `{"id": "q", "turns": "hi"}`, "$.questions[0].turns", "want an array of user turns"},
		{"a turn that is a number", `{"id": "q", "turns": ["hi", 42]}`, "$.questions[0].turns[1]", "want a user turn: a string or an object"},
		{"a turn without content", `{"id": "q", "turns": [{"expected": "x"}]}`, "$.questions[0].turns[0].content", "missing: want the user's message"},
		{"a turn with an unknown key", `{"id": "q", "turns": [{"content": "hi", "answer": "x"}]}`, "$.questions[0].turns[0]", "answer"},
		{"turns and question", `{"id": "q", "question": "hi", "turns": ["hi"]}`, "$.questions[0].question", "instead of question"},
		{"turns and scenario", `{"id": "q", "turns": ["hi"], "scenario": {"goal": "g"}}`, "$.questions[0].scenario", "not both"},
		{"scenario without a goal", `{"id": "q", "scenario": {"user_description": "a customer"}}`, "$.questions[0].scenario.goal", "missing"},
		{"cap of 0", `{"id": "q", "scenario": {"goal": "g", "max_turns": 0}}`, "$.questions[0].scenario.max_turns", "from 1 to 50"},
		{"cap of 51", `{"id": "q", "scenario": {"goal": "g", "max_turns": 51}}`, "$.questions[0].scenario.max_turns", "from 1 to 50"},
		{"cap not a number", `{"id": "q", "scenario": {"goal": "g", "max_turns": "5"}}`, "$.questions[0].scenario.max_turns", "from 1 to 50"},
		{"a turn check needing expected", `{"id": "q", "turns": [{"content": "hi", "checks": [{"type": "exact_match"}]}]}`, "$.questions[0].turns[0].checks", "the turn's expected"},
		{"a conversation metric on a single question", `{"id": "q", "question": "hi", "checks": [{"type": "conversation_turns", "max": 2}]}`, "$.questions[0].checks", "conversation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "suite.json")
			writeTestFile(t, path, `{"suite": "S", "version": "1", "agent": {"name": "A", "command": ["true"]},
  "evaluators": {"exact": {"type": "exact_match", "params": {"value": "x"}}}, "questions": [`+tc.question+`]}`)
			for _, cmd := range []string{"validate", "run"} {
				code, out, stderr := evalrun(t, "--database-url", "sqlite:"+filepath.Join(t.TempDir(), "r.db"), cmd, path)
				if code != exitInvalid {
					t.Fatalf("%s: exit %d, want 2\n%s%s", cmd, code, out, stderr)
				}
				if msg := out + stderr; !strings.Contains(msg, path+": "+tc.path) || !strings.Contains(msg, tc.want) {
					t.Errorf("%s: message lacks %q and %q:\n%s", cmd, path+": "+tc.path, tc.want, msg)
				}
			}
		})
	}
}
