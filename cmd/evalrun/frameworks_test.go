package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/jsonvalue"
	"github.com/agentevals-go/agentevals/internal/testkit/nodedeps"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// frameworkAgents are the agents of testdata/otel-node, one per framework,
// each exporting its spans its own way, and a span_count a suite checks
// with the framework's span names: the two tool calls' spans, or (where
// tool spans are named after the tool) the three model calls'.
var frameworkAgents = []struct {
	name, script, spans string
	count               int
}{
	{"ai-sdk-6", "ai6-agent.mjs", "ai.toolCall*", 2},
	{"ai-sdk-7", "ai7-agent.mjs", "execute_tool *", 2},
	{"langgraph", "langgraph-agent.mjs", "ChatOpenAI", 3},
	{"openai-agents", "openai-agents-agent.mjs", "execute_tool *", 2},
	{"openai-agents-responses", "openai-agents-agent.mjs --responses", "execute_tool *", 2},
	{"mastra", "mastra-agent.mjs", "execute_tool *", 2},
	// The exporter as with an older pairing of Mastra's packages: one chat
	// span per generation, the model calls its agent_step children.
	{"mastra-generation-chat", "mastra-agent.mjs --generation-chat", "agent_step *", 3},
}

// frameworkSuite is one framework's suite: a question scored on its
// trajectory and its spans, one whose second tool call fails, and a 3-turn
// conversation, all with every tool call read from the spans (the agents
// report none).
const frameworkSuite = `{"suite": "Framework %[1]s", "agent": %[2]s, "traces": true,
  "questions": [
    {"id": "order", "question": "Where is order 42?",
     "expected_actions": [{"name": "lookup_order", "arguments": {"id": 42}}, {"name": "track_parcel", "arguments": {"order_id": 42, "carrier": "DHL"}}],
     "checks": [{"type": "action_group", "params": {"mode": "strict"}}, {"type": "tool_success"}, {"type": "contains", "value": "Friday"},
                {"type": "span_count", "params": {"pattern": %[3]q, "min": %[4]d, "max": %[4]d}}]},
    {"id": "broken", "question": "Where is order 7?",
     "expected_actions": [{"name": "lookup_order", "arguments": {"id": 7}}, {"name": "track_parcel", "arguments": {"order_id": 7, "carrier": "DHL"}}],
     "checks": [{"type": "action_group", "params": {"mode": "strict"}}, {"type": "contains", "value": "cannot be tracked"},
                {"type": "error_spans", "params": {"pattern": "*", "max_count": 1}}]},
    {"id": "chat", "turns": ["Where is order 42?",
       {"content": "When will it arrive?", "checks": [{"type": "contains", "value": "Friday"}]},
       {"content": "Who carries it?", "checks": [{"type": "contains", "value": "DHL"}]}],
     "checks": [{"type": "conversation_turns", "max": 3}, {"type": "tool_success"},
                {"type": "tool_used", "params": {"tools": ["lookup_order", "track_parcel"], "min": 3, "max": 3}}]}]}`

// TestBinary_Frameworks runs each framework's agent (real npm packages,
// pinned in testdata/otel-node's lock file) under the real evalrun with
// tracing on, against the scripted model, and reads the stored rows: every
// tool call's name, arguments, result and status come from the framework's
// spans, model calls and token counts are numbers, and the trajectory, span
// and conversation checks pass.
func TestBinary_Frameworks(t *testing.T) {
	nodedeps.RequireNode(t, "22.13") // the engines of the pinned frameworks
	nodeDir := nodedeps.Require(t, filepath.Join("..", "..", "testdata", "otel-node"))
	bin := buildBinary(t)
	only := os.Getenv("FRAMEWORK") // FRAMEWORK=mastra runs one while iterating
	for _, fw := range frameworkAgents {
		if only != "" && only != fw.name {
			continue
		}
		t.Run(fw.name, func(t *testing.T) {
			command := strings.Fields(fw.script) // the script, then its arguments
			model := newScriptedChat(t)
			dir := t.TempDir()
			url := testdb.SQLiteURL(t)
			agentCfg, _ := json.Marshal(map[string]any{"name": fw.name, "type": "worker", "command": append([]string{"node", filepath.Join(nodeDir, command[0])}, command[1:]...),
				"dir": nodeDir, "env": []string{"MODEL_BASE_URL"}, "timeout": "60s"})
			suitePath := filepath.Join(dir, "suite.json")
			writeTestFile(t, suitePath, fmt.Sprintf(frameworkSuite, fw.name, agentCfg, fw.spans, fw.count))
			cmd := exec.Command(bin, "--database-url", url, "run", suitePath, "-j", "1")
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir, "NO_COLOR=1", "CI=true", "MODEL_BASE_URL=" + model.srv.URL + "/v1"}
			out, err := cmd.CombinedOutput()
			run := newestRun(t, url)
			if err != nil {
				t.Errorf("evalrun run: %v\n%s", err, out)
			}
			if len(run.Cases) != 3 {
				t.Fatalf("%d stored cases, want 3\n%s", len(run.Cases), out)
			}
			for _, c := range run.Cases {
				wantFrameworkCase(t, c)
			}
			if got := model.calls.Load(); got != 15 {
				t.Errorf("the model was called %d times, want 15 (3 per agent call)", got)
			}
		})
	}
}

// wantFrameworkCase checks one stored case of a framework's suite.
func wantFrameworkCase(t *testing.T, c *models.CaseResult) {
	t.Helper()
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil {
		t.Fatalf("%s: metadata: %v", c.CaseID, err)
	}
	dump := func() string {
		if meta.Trace == nil {
			return "no trace record"
		}
		b, _ := json.MarshalIndent(meta.Trace.Spans, "", " ")
		return string(b)
	}
	if c.Status != models.StatusPassed {
		t.Errorf("%s: status %s, error %s\nmetrics %s\nspans %s", c.CaseID, c.Status, c.ErrorDetails, metricReasons(c), dump())
	}
	calls := 1
	if c.CaseID == "chat" {
		calls = 3
	}
	script := modelScript
	if c.CaseID == "broken" {
		script = brokenScript
	}
	wantActions(t, c.CaseID, c.Actions, script, calls)
	wantTokens := func(what string, got *int64, per int64) {
		if got == nil || *got != per*3*int64(calls) {
			t.Errorf("%s: %s tokens %v, want %d (3 model calls of %d per agent call)", c.CaseID, what, got, per*3*int64(calls), per)
		}
	}
	wantTokens("input", c.InputTokens, scriptPromptTokens)
	wantTokens("output", c.OutputTokens, scriptOutputTokens)
	if c.CaseID == "chat" {
		return
	}
	if meta.Trace == nil {
		t.Fatalf("%s: no trace record", c.CaseID)
	}
	if meta.Trace.ActionsFrom != "spans" || meta.Trace.ModelCalls != 3 {
		t.Errorf("%s: actions from %q, %d model calls; want spans and 3\nspans %s", c.CaseID, meta.Trace.ActionsFrom, meta.Trace.ModelCalls, dump())
	}
	if strings.Contains(string(c.ResponseMetadata), "[REDACTED]") {
		t.Errorf("%s: the stored trace has redacted values\nspans %s", c.CaseID, dump())
	}
}

// wantActions checks the stored actions: the script's two tool calls per
// agent call, each with its arguments, the tool's result and status ok;
// order 7's track_parcel failed (status error).
func wantActions(t *testing.T, caseID string, raw models.JSON, script orderScript, calls int) {
	t.Helper()
	var acts []struct {
		Group      *string         `json:"group"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Result     json.RawMessage `json:"result"`
		Status     string          `json:"status"`
		DurationMS *float64        `json:"duration_ms"`
	}
	if err := json.Unmarshal(raw, &acts); err != nil || len(acts) != 2*calls {
		t.Errorf("%s: stored actions %s (%v), want %d calls", caseID, raw, err, 2*calls)
		return
	}
	if n := strings.Count(string(raw), `"group":null`); n != len(acts) {
		t.Errorf("%s: %d of %d stored actions carry \"group\": null, the gem's shape for a call without a group: %s", caseID, n, len(acts), raw)
	}
	results := []string{`{"id":42,"status":"shipped","carrier":"DHL"}`, `{"order_id":42,"carrier":"DHL","eta":"Friday"}`}
	statuses := []string{"ok", "ok"}
	if script.calls[0].args == brokenScript.calls[0].args {
		results, statuses = []string{`{"id":7,"status":"shipped","carrier":"DHL"}`, ""}, []string{"ok", "error"}
	}
	for i, a := range acts {
		want := script.calls[i%2]
		// A failed call's result is whatever the framework recorded (the
		// error, or the text the model was given instead); its status counts.
		resultOK := results[i%2] == "" || sameJSON(a.Result, results[i%2])
		if a.Name != want.name || !sameJSON(a.Arguments, want.args) || !resultOK || a.Status != statuses[i%2] || a.DurationMS == nil || a.Group != nil {
			t.Errorf("%s: action %d = %s %s → %s (%s, group %v, %v ms), want %s %s → %s %s", caseID, i, a.Name, a.Arguments, a.Result, a.Status, a.Group, a.DurationMS,
				want.name, want.args, cmp.Or(results[i%2], "anything"), statuses[i%2])
		}
	}
}

// sameJSON reports whether raw is the JSON value of want.
func sameJSON(raw json.RawMessage, want string) bool {
	ok, err := jsonvalue.Equal(raw, []byte(want))
	return err == nil && ok
}
