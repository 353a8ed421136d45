package interop_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// A production window (evalrun score-traces) is an ordinary run to the
// gem: ActiveRecord reads its summary with the production record, one case
// row per trace with the trace id in its metadata, and a metric row per
// check; the gem's validations accept the run, its cases and metrics, and
// Run#snapshot gives them back as JSON values.
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

	var snap struct {
		Runs []struct {
			Snapshot struct {
				ID, Suite string
				StartedAt string `json:"started_at"`
				Summary   struct {
					Production struct {
						Monitor string
						Read    int
						Files   []string
					}
				}
				Cases []struct {
					ID       string
					Status   string
					Output   string
					Metadata struct {
						Production struct {
							TraceIDs []string `json:"trace_ids"`
						}
					}
					Metrics []struct {
						Name   string
						Passed bool
						Score  *float64
					}
				}
			}
			Errors []string
		}
	}
	raw := e.ruby(t, "snapshot")
	if err := json.Unmarshal(raw, &snap); err != nil || len(snap.Runs) != 1 {
		t.Fatalf("Run#snapshot: %v\n%s", err, raw)
	}
	got := snap.Runs[0]
	if len(got.Errors) > 0 {
		t.Errorf("the gem's validations refuse the production run: %v", got.Errors)
	}
	sp := got.Snapshot
	if sp.ID != run["id"] || sp.Summary.Production.Monitor != "shop-production" || sp.Summary.Production.Read != 3 ||
		len(sp.Summary.Production.Files) != 1 || !strings.HasPrefix(sp.StartedAt, "20") || len(sp.Cases) != 3 {
		t.Fatalf("Run#snapshot: %s", raw)
	}
	for i, sc := range sp.Cases {
		if sc.Status != "passed" || sc.Output != "It ships today." || len(sc.Metadata.Production.TraceIDs) != 1 ||
			sc.ID != sc.Metadata.Production.TraceIDs[0] || len(sc.Metrics) != 2 || !sc.Metrics[1].Passed || sc.Metrics[1].Score == nil {
			t.Errorf("Run#snapshot case %d: %+v", i, sc)
		}
	}
}
