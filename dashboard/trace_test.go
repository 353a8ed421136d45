package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/models"
)

// seedTraced inserts a run whose case carries a trace record: a root, a
// model call and a failed tool call whose name is markup.
func seedTraced(t *testing.T, rw *models.DB) *models.Run {
	t.Helper()
	in, out := int64(120), int64(30)
	meta := models.CaseMetadata{Trace: &models.CaseTrace{TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", ActionsFrom: "spans", ModelCalls: 1,
		InputTokens: &in, OutputTokens: &out, SpansReceived: 3, Notes: []string{"while this case ran the receiver refused 1 OTLP requests"},
		Spans: []models.TraceSpan{
			{SpanID: "a1", Name: "invoke_agent support", StartMS: 0, DurationMS: 100, Status: "unset"},
			{SpanID: "b2", ParentID: "a1", Name: "chat gpt-4o", StartMS: 5, DurationMS: 40, Status: "ok", Attributes: models.SpanAttrsOf(map[string]string{"gen_ai.usage.input_tokens": "120", "gen_ai.usage.output_tokens": "30"})},
			{SpanID: "c3", ParentID: "a1", Name: "execute_tool <img src=x onerror=alert(1)>", StartMS: 50, DurationMS: 30, Status: "error", StatusMessage: "order service down",
				Attributes: models.SpanAttrsOf(map[string]string{"gen_ai.tool.call.arguments": `{"id": 42}`})},
		}}}
	rm, err := meta.Encode()
	if err != nil {
		t.Fatal(err)
	}
	run := &models.Run{Suite: "Traced", Agent: "A", Version: "1", SuiteDigest: "t", StartedAt: t0, FinishedAt: t0.Add(1e9)}
	run.Cases = []*models.CaseResult{{Position: 0, CaseID: "q1", Name: "Q1", Status: models.StatusPassed, DurationMS: 100,
		Question: models.JSON(`"Where is order 42?"`), ResponseMetadata: rm, Actions: models.JSON(`[{"name":"lookup_order","arguments":{"id":42},"status":"error","duration_ms":30}]`),
		ExpectedActions: models.JSON(`[{"group":"orders","name":"lookup_order","arguments":{"id":42}}]`),
		Metrics:         []*models.MetricResult{metric(0, "exact_match", 1, nil, false, "")}}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	return run
}

// TestServer_CaseTraceWaterfall: the case page draws the trace without
// script: one row per span, indented under its parent, a bar on the time
// line, errors marked, untrusted names escaped.
func TestServer_CaseTraceWaterfall(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	run := seedTraced(t, rw)
	ts := MustServe(t, ro, mount)
	r := mustGet(t, ts.URL+mount+"/runs/"+run.ID.String()+"/cases/0", http.StatusOK)
	rows := mustSelect(t, r.Doc, "table.waterfall tbody tr")
	if len(rows) != 3 {
		t.Fatalf("waterfall rows = %d, want 3", len(rows))
	}
	if got := strings.Join(strings.Fields(text(rows[2])), " "); !strings.Contains(got, "· execute_tool <img src=x onerror=alert(1)>") || !strings.Contains(got, "order service down") {
		t.Errorf("tool row = %q", got)
	}
	if cls, _ := attr(rows[2], "class"); cls != "span-error" {
		t.Errorf("tool row class = %q", cls)
	}
	if len(selectAll(r.Doc, "table.waterfall img")) != 0 {
		t.Error("a span name became markup")
	}
	rects := mustSelect(t, r.Doc, "table.waterfall rect")
	if x, _ := attr(rects[2], "x"); x != "500.0" {
		t.Errorf("tool bar x = %s, want 500.0 (50 ms into 100 ms)", x)
	}
	hint := strings.Join(strings.Fields(text(mustSelect(t, r.Doc, "section[aria-labelledby=t-h] p.hint")[0])), " ")
	for _, want := range []string{"3 spans received", "1 model calls (120 in / 30 out tokens)", "read from these spans"} {
		if !strings.Contains(hint, want) {
			t.Errorf("hint %q lacks %q", hint, want)
		}
	}
	if !strings.Contains(text(mustSelect(t, r.Doc, "ul.trace-notes")[0]), "refused 1 OTLP requests") {
		t.Error("the trace's notes are not shown")
	}
	// A call read from spans has no group: it matches the expected call by
	// name, and shows its outcome.
	row := strings.Join(strings.Fields(text(mustSelect(t, r.Doc, "table.actions tbody tr")[0])), " ")
	if !strings.Contains(row, `lookup_order {"id":42} — error, 30.0 ms`) || !strings.HasSuffix(row, "match") {
		t.Errorf("actions row = %q", row)
	}
}

// TestBrowser_CaseTraceWaterfall: in Chromium, under the dashboard's
// Content-Security-Policy, the bars are drawn at their place on the line.
func TestBrowser_CaseTraceWaterfall(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	run := seedTraced(t, rw)
	ts := MustServe(t, ro, mount)
	ctx, _ := newBrowser(t)
	step, eval := browserSteps(t, ctx)
	step("open the case", chromedp.Navigate(ts.URL+mount+"/runs/"+run.ID.String()+"/cases/0"), chromedp.WaitVisible("table.waterfall"))
	widths, _ := eval(`Array.from(document.querySelectorAll("table.waterfall rect")).map(r => Math.round(r.getBoundingClientRect().width))`).([]any)
	lefts, _ := eval(`Array.from(document.querySelectorAll("table.waterfall rect")).map(r => Math.round(r.getBoundingClientRect().left - r.ownerSVGElement.getBoundingClientRect().left))`).([]any)
	if len(widths) != 3 || len(lefts) != 3 {
		t.Fatalf("bars: widths %v lefts %v", widths, lefts)
	}
	root, tool := widths[0].(float64), widths[2].(float64)
	if root <= 0 || tool <= 0 || tool >= root || lefts[2].(float64) <= lefts[1].(float64) {
		t.Errorf("bars are not on the time line: widths %v lefts %v", widths, lefts)
	}
}
