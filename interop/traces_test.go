package interop_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// spanAgent is a command agent that sends one tool-call span over OTLP/HTTP
// JSON, as an instrumented agent would, continuing the case's
// TRACEPARENT: arguments written as plain text, no group. Then it answers
// without reporting actions, so the case's actions are read from spans.
const spanAgent = `set -e
cat >/dev/null
tid=$(echo "$TRACEPARENT" | cut -d- -f2)
pid=$(echo "$TRACEPARENT" | cut -d- -f3)
now="$(date +%s)000000000"
attr() { printf '{"key":"%s","value":{"stringValue":"%s"}}' "$1" "$2"; }
span=$(printf '{"traceId":"%s","spanId":"00000000000000a1","parentSpanId":"%s","name":"execute_tool lookup_order","startTimeUnixNano":"%s","endTimeUnixNano":"%s","attributes":[%s,%s,%s]}' \
  "$tid" "$pid" "$now" "$now" "$(attr gen_ai.operation.name execute_tool)" "$(attr gen_ai.tool.name lookup_order)" "$(attr gen_ai.tool.call.arguments 'order 42')")
curl -sf -o /dev/null -H 'Content-Type: application/json' --data-binary "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[$span]}]}]}" "$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
echo '{"output": "Order 42 is on its way."}'
`

// TestSpanActionsReadByRails: tool calls read from spans are stored as the
// gem stores actions, so ActiveRecord reads each as a Hash with a Hash of
// arguments and a group key that is nil when unknown; the span's own
// argument text is kept beside the call in the case's trace record.
func TestSpanActionsReadByRails(t *testing.T) {
	e := newEnv(t)
	e.mustEvalrun(t, "db:migrate")
	script := filepath.Join(t.TempDir(), "agent.sh")
	if err := os.WriteFile(script, []byte(spanAgent), 0o755); err != nil {
		t.Fatal(err)
	}
	s := writeSuite(t, `{"suite": "Traced", "traces": true, "agent": {"name": "A", "command": ["sh", `+strconv.Quote(script)+`]},
	  "evaluators": {"used": {"type": "tool_used", "params": {"tools": ["lookup_order"]}, "threshold": 1}},
	  "questions": [{"id": "where", "question": "Where is order 42?"}]}`)
	if code, out := e.evalrun(t, "run", s); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	if len(d.Runs) != 1 {
		t.Fatalf("Ruby reads %d runs, want 1", len(d.Runs))
	}
	c := d.Runs[0]["cases"].([]any)[0].(map[string]any)
	var read []struct {
		Shapes []map[string]any `json:"shapes"`
	}
	if err := json.Unmarshal(e.ruby(t, "action-shapes"), &read); err != nil || len(read) != 1 || len(read[0].Shapes) != 1 {
		t.Fatalf("Ruby reads actions %v (%v), want the one call read from the span", c["actions"], err)
	}
	sh := read[0].Shapes[0]
	if sh["action_class"] != "Hash" || sh["arguments_class"] != "Hash" || sh["group_key"] != true || sh["group_nil"] != true {
		t.Errorf("Ruby reads the action %v as %v; want a Hash with Hash arguments and group: nil, as the gem writes", c["actions"], sh)
	}
	meta, _ := c["response_metadata"].(map[string]any)
	tr, _ := meta["otlp_trace"].(map[string]any)
	spanActions, _ := tr["span_actions"].([]any)
	if len(spanActions) != 1 || spanActions[0].(map[string]any)["raw_arguments"] != "order 42" {
		t.Errorf("Ruby reads the trace record's span_actions %v; want the span's argument text kept beside the call", tr["span_actions"])
	}
}
