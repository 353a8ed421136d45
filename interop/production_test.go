package interop_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// A production window (evalrun score-traces) is an ordinary run to the
// gem: ActiveRecord reads its summary with the production record, one case
// row per trace with the trace id in its metadata, and a metric row per
// check; and the gem's previous run of it is not a suite run.
func TestProductionWindowReadByRails(t *testing.T) {
	e := newEnv(t)
	e.mustEvalrun(t, "db:migrate")
	dir := t.TempDir()
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "shop")
	spans := rs.ScopeSpans().AppendEmpty().Spans()
	start := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	for i := range 3 {
		tid := pcommon.TraceID{byte(i + 1), 0xab}
		root := spans.AppendEmpty()
		root.SetTraceID(tid)
		root.SetSpanID(pcommon.SpanID{byte(i + 1), 1})
		root.SetName("invoke_agent shop")
		root.SetStartTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(i) * time.Minute)))
		root.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(i)*time.Minute + time.Second)))
		root.Attributes().PutStr("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"Where is order 7?"}]}]`)
		root.Attributes().PutStr("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"It ships today."}]}]`)
	}
	line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	traces := filepath.Join(dir, "traces.jsonl")
	monitor := filepath.Join(dir, "monitor.json")
	if err := os.WriteFile(traces, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(monitor, []byte(`{"monitor": "shop-production", "agent": "shop",
	  "checks": [{"type": "error_spans"}, {"type": "contains", "value": "ships"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := e.evalrun(t, "score-traces", monitor, "--traces", traces); code != 0 {
		t.Fatalf("score-traces: exit %d\n%s", code, out)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	if len(d.Runs) != 1 {
		t.Fatalf("Ruby reads %d runs, want 1", len(d.Runs))
	}
	run := d.Runs[0]
	summary, _ := run["summary"].(map[string]any)
	prod, _ := summary["production"].(map[string]any)
	if run["suite"] != "shop-production" || prod["monitor"] != "shop-production" || prod["read"] != float64(3) {
		t.Fatalf("Ruby reads suite %v, summary.production %v", run["suite"], summary["production"])
	}
	cases := run["cases"].([]any)
	if len(cases) != 3 {
		t.Fatalf("Ruby reads %d case rows, want 3", len(cases))
	}
	c := cases[0].(map[string]any)
	meta, _ := c["metadata"].(map[string]any)
	pc, _ := meta["production"].(map[string]any)
	ids, _ := pc["trace_ids"].([]any)
	if c["status"] != "passed" || c["output"] != "It ships today." || len(ids) != 1 || ids[0] != "01ab0000000000000000000000000000" {
		t.Errorf("Ruby reads case %v: status %v, output %v, metadata %v", c["case_id"], c["status"], c["output"], c["metadata"])
	}
	if ms, _ := c["metrics"].([]any); len(ms) != 2 {
		t.Errorf("Ruby reads %d metric rows, want 2", len(ms))
	}
}
