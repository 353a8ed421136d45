package monitor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/tracefile"
)

// exportFile writes traces in the file exporter's JSON-lines shape: one
// trace per service and question ("" for a trace without a user message),
// each a root span with a tool call under it.
func exportFile(t *testing.T, traces ...[2]string) string {
	t.Helper()
	td := ptrace.NewTraces()
	start := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	for i, tr := range traces {
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr("service.name", tr[0])
		spans := rs.ScopeSpans().AppendEmpty().Spans()
		tid := pcommon.TraceID{byte(i + 1), 1, 2, 3}
		root := spans.AppendEmpty()
		root.SetTraceID(tid)
		root.SetSpanID(pcommon.SpanID{byte(i + 1), 9})
		root.SetName("invoke_agent shop")
		root.SetStartTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(i) * time.Second)))
		root.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(i)*time.Second + 500*time.Millisecond)))
		root.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
		root.Attributes().PutStr("gen_ai.agent.name", "shop")
		if tr[1] != "" {
			root.Attributes().PutStr("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+tr[1]+`"}]}]`)
		}
		root.Attributes().PutStr("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"It ships today."}]}]`)
		tool := spans.AppendEmpty()
		tool.SetTraceID(tid)
		tool.SetSpanID(pcommon.SpanID{byte(i + 1), 10})
		tool.SetParentSpanID(root.SpanID())
		tool.SetName("execute_tool lookup_order")
		tool.SetStartTimestamp(root.StartTimestamp())
		tool.SetEndTimestamp(root.EndTimestamp())
		tool.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
		tool.Attributes().PutStr("gen_ai.tool.name", "lookup_order")
	}
	line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "traces.jsonl")
	if err := os.WriteFile(p, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRead_Window(t *testing.T) {
	m, err := Load(write(t, `{"monitor":"shop","agent":"shop","traces":{"service":"shop","root_span":"invoke_agent shop"},"max_cases":2,
		"checks":[{"type":"tool_used","tools":["lookup_order"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	f := exportFile(t, [2]string{"shop", "Where is order 1?"}, [2]string{"billing", "Refund?"}, [2]string{"shop", ""}, [2]string{"shop", "Order 4?"})
	w, err := m.Read([]string{f, f}, tracefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	r := w.Record
	if r.Read != 8 || r.Sampled != 8 || r.Filtered != 1 || r.Duplicates != 4 || r.Capped != 1 || r.Skipped != 6 || len(w.Suite.Cases) != 2 {
		t.Fatalf("record %+v, %d cases", r, len(w.Suite.Cases))
	}
	if got := string(w.Suite.Cases[1].Question); !strings.Contains(got, `"user_message":null`) {
		t.Errorf("a trace without a user message: question %s", got)
	}
	if !strings.Contains(string(w.Suite.Cases[0].Metadata), `"trace_ids":["01010203000000000000000000000000"]`) {
		t.Errorf("metadata %s", w.Suite.Cases[0].Metadata)
	}
	o, ok := w.Observed(w.Suite.Cases[0].ID)
	if !ok || string(o.Response.Output) != `"It ships today."` || o.Trace == nil || len(o.Trace.Actions) != 1 {
		t.Errorf("observed %+v", o)
	}
	if !r.WindowStart.Equal(time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("window start %s", r.WindowStart)
	}
	if !models.IsProduction(w.Suite.Plan(w.Suite.Calculated(false))) {
		t.Error("the planned run should read as production")
	}

	none, err := Load(write(t, `{"monitor":"shop","agent":"shop","traces":{"attributes":{"deployment":"eu"}},"checks":[{"type":"error_spans"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := none.Read([]string{f}, tracefile.Limits{}); !errors.Is(err, ErrEmpty) || !strings.Contains(err.Error(), "4 filtered out") {
		t.Errorf("an empty window: %v", err)
	}
}
