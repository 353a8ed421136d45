package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/models"
)

// writeShopExport writes n shop traces in the file exporter's JSON-lines
// shape, a batch of ten a line: every fourth skips the order lookup and
// every seventh lookup fails.
func writeShopExport(t *testing.T, path string, n int) {
	t.Helper()
	var lines []string
	start := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	for b := 0; b < n; b += 10 {
		td := ptrace.NewTraces()
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr("service.name", "shop")
		spans := rs.ScopeSpans().AppendEmpty().Spans()
		for i := b; i < min(b+10, n); i++ {
			at := start.Add(time.Duration(i) * time.Second)
			tid := pcommon.TraceID{byte(i), byte(i >> 8), 0xab, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, byte(i * 37)}
			root := spans.AppendEmpty()
			root.SetTraceID(tid)
			root.SetSpanID(pcommon.SpanID{1, byte(i)})
			root.SetName("invoke_agent shop")
			root.SetStartTimestamp(pcommon.NewTimestampFromTime(at))
			root.SetEndTimestamp(pcommon.NewTimestampFromTime(at.Add(600 * time.Millisecond)))
			root.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
			root.Attributes().PutStr("gen_ai.input.messages", fmt.Sprintf(`[{"role":"user","parts":[{"type":"text","content":"Where is order %d?"}]}]`, 1000+i))
			root.Attributes().PutStr("gen_ai.output.messages", fmt.Sprintf(`[{"role":"assistant","parts":[{"type":"text","content":"Order %d ships today."}]}]`, 1000+i))
			if i%4 == 0 {
				continue
			}
			tool := spans.AppendEmpty()
			tool.SetTraceID(tid)
			tool.SetSpanID(pcommon.SpanID{2, byte(i)})
			tool.SetParentSpanID(root.SpanID())
			tool.SetName("execute_tool lookup_order")
			tool.SetStartTimestamp(pcommon.NewTimestampFromTime(at.Add(100 * time.Millisecond)))
			tool.SetEndTimestamp(pcommon.NewTimestampFromTime(at.Add(200 * time.Millisecond)))
			tool.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
			tool.Attributes().PutStr("gen_ai.tool.name", "lookup_order")
			tool.Attributes().PutStr("gen_ai.tool.call.arguments", fmt.Sprintf(`{"order":%d}`, 1000+i))
			if i%7 == 0 {
				tool.Status().SetCode(ptrace.StatusCodeError)
			}
		}
		line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(line))
	}
	writeTestFile(t, path, strings.Join(lines, "\n")+"\n")
}

// TestScoreTraces_ShardsMergeIntoTheWindow scores one window whole, then
// as three shards saved to evidence files and merged by db:import
// --merge: the merged run holds field for field what the unsharded run
// stores (ids and times aside), its production record counting the window
// once.
func TestScoreTraces_ShardsMergeIntoTheWindow(t *testing.T) {
	dir := t.TempDir()
	traces := filepath.Join(dir, "window.jsonl")
	writeShopExport(t, traces, 60)
	mon := filepath.Join(dir, "monitor.json")
	writeTestFile(t, mon, `{"monitor": "shop-production", "agent": "shop", "sample": 0.8, "max_cases": 40,
  "checks": [{"name": "looked_up_order", "type": "tool_used", "tools": ["lookup_order"]}, {"type": "error_spans"}]}`)
	url := "sqlite:" + filepath.Join(dir, "db.sqlite3")
	db := []string{"--database-url", url}
	if code, out, errOut := evalrun(t, append(db, "score-traces", mon, "--traces", traces)...); code != exitOK {
		t.Fatalf("unsharded window: exit %d\n%s%s", code, out, errOut)
	}
	unsharded := getRun(t, url, latestRunID(t, url))
	if n := len(unsharded.Cases); n != 40 {
		t.Fatalf("the window scored %d cases, want max_cases 40", n)
	}

	var shards []string
	total := 0
	for i := 1; i <= 3; i++ {
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		shards = append(shards, p)
		code, out, errOut := evalrun(t, append(db, "score-traces", mon, "--traces", traces, "--shard", fmt.Sprintf("%d/3", i), "--save-to", p)...)
		if code != exitOK || !strings.Contains(out, fmt.Sprintf("Shard %d/3:", i)) {
			t.Fatalf("shard %d: exit %d\n%s%s", i, code, out, errOut)
		}
		f, err := evidence.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		total += len(f.Run.Cases)
	}
	if total != 40 {
		t.Errorf("the shards scored %d cases in all, want the window's 40", total)
	}
	code, out, errOut := evalrun(t, append(db, "score-traces", mon, "--traces", traces, "--shard", "1/3")...)
	if code != exitInvalid || !strings.Contains(errOut, "--save-to") {
		t.Errorf("a shard without --save-to: exit %d, want 2\n%s%s", code, out, errOut)
	}
	if code, out, errOut := evalrun(t, append(append(db, "db:import", "--merge"), shards[2], shards[0], shards[1])...); code != exitOK {
		t.Fatalf("db:import --merge: exit %d\n%s%s", code, out, errOut)
	}
	merged := getRun(t, url, latestRunID(t, url))
	if merged.ID == unsharded.ID || merged.SuiteDigest != unsharded.SuiteDigest {
		t.Fatalf("merged run %s (digest %s), unsharded %s (digest %s)", merged.ID, merged.SuiteDigest, unsharded.ID, unsharded.SuiteDigest)
	}
	if same, diff := evidence.Equal(withoutTiming(t, merged), withoutTiming(t, unsharded)); !same {
		t.Errorf("the merged shards differ from the unsharded window: %s", diff)
	}
	if m, u := productionRecord(t, merged), productionRecord(t, unsharded); m.Read != u.Read || m.Sampled != u.Sampled || m.Capped != u.Capped || m.Sample != u.Sample || m.SpansRead != u.SpansRead {
		t.Errorf("merged record %+v, unsharded %+v", m, u)
	}
}

// productionRecord is the run's production record; a run without one
// fails the test.
func productionRecord(t *testing.T, run *models.Run) models.Production {
	t.Helper()
	s, err := models.DecodeRunSummary(run.Summary)
	if err != nil {
		t.Fatal(err)
	}
	p, err := models.ProductionOf(s)
	if err != nil || p == nil {
		t.Fatalf("run %s holds no production record: %v", run.ID, err)
	}
	return *p
}
