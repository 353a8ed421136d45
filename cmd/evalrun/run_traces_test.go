package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentevals-go/agentevals/internal/testkit/nodedeps"
)

// TestRun_tracesAndExport runs a Node SDK agent under evalrun run
// --traces: its tool calls are scored from its spans, and --export-otlp
// sends one span per question, in the agent's trace, to a collector.
func TestRun_tracesAndExport(t *testing.T) {
	nodeDir := nodedeps.Require(t, filepath.Join("..", "..", "testdata", "otel-node"))
	var mu sync.Mutex
	exported := map[string]string{} // span name -> trace id
	col := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		rss := req.Traces().ResourceSpans()
		for i := range rss.Len() {
			for j := range rss.At(i).ScopeSpans().Len() {
				spans := rss.At(i).ScopeSpans().At(j).Spans()
				for k := range spans.Len() {
					exported[spans.At(k).Name()] = spans.At(k).TraceID().String()
				}
			}
		}
	}))
	defer col.Close()
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "suite.json")
	agentCfg, _ := json.Marshal(map[string]any{"name": "NodeAgent", "type": "command", "command": []string{"node", filepath.Join(nodeDir, "sdk-agent.mjs")}, "timeout": "60s"})
	writeTestFile(t, suitePath, fmt.Sprintf(`{"suite": "Traced", "agent": %s, "traces": true,
	  "evaluators": {"path": {"type": "action_group", "params": {"mode": "superset"}, "threshold": 1},
	                 "calls_ok": {"type": "tool_success", "threshold": 1}},
	  "questions": [{"id": "fine", "question": "Where is order 42?", "expected_actions": [{"group": "orders", "name": "lookup_order", "arguments": {"id": 42}}]},
	                {"id": "broken", "question": "Refund order 42", "expected_actions": [{"group": "orders", "name": "lookup_order", "arguments": {"id": 42}}]}]}`, agentCfg))
	evidence := filepath.Join(dir, "run.json")
	code, stdout, stderr := evalrun(t, "run", suitePath, "--save-to", evidence, "--export-otlp", col.URL+"/v1/traces")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (broken's refund failed)\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"traces: receiving OTLP/HTTP spans at http://127.0.0.1:", "exported 2 question spans"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, "fine    passed") || !strings.Contains(stdout, "calls_ok 0.500/1.000") {
		t.Errorf("stdout:\n%s", stdout)
	}
	raw, err := os.ReadFile(evidence)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			CaseID           string          `json:"case_id"`
			ResponseMetadata json.RawMessage `json:"response_metadata"`
		} `json:"case_results"`
	}
	if err := json.Unmarshal(raw, &file); err != nil || len(file.Cases) != 2 {
		t.Fatalf("evidence file: %v (%d cases)", err, len(file.Cases))
	}
	mu.Lock()
	defer mu.Unlock()
	for _, c := range file.Cases {
		var meta struct {
			Trace struct {
				TraceID     string `json:"trace_id"`
				ActionsFrom string `json:"actions_from"`
			} `json:"otlp_trace"`
		}
		_ = json.Unmarshal(c.ResponseMetadata, &meta)
		if meta.Trace.ActionsFrom != "spans" || exported["evaluate "+c.CaseID] != meta.Trace.TraceID {
			t.Errorf("case %s: trace %+v, exported span in trace %q", c.CaseID, meta.Trace, exported["evaluate "+c.CaseID])
		}
	}
}
