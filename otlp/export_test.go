package otlp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/agentevals-go/agentevals/models"
)

// collector is an OTLP/HTTP endpoint that keeps what it is sent, decoded
// with the collector's library.
func collector(t *testing.T) (*httptest.Server, func() ptrace.SpanSlice) {
	var mu sync.Mutex
	all := ptrace.NewSpanSlice()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		rss := req.Traces().ResourceSpans()
		for i := range rss.Len() {
			sss := rss.At(i).ScopeSpans()
			for j := range sss.Len() {
				sss.At(j).Spans().MoveAndAppendTo(all)
			}
		}
		mu.Unlock()
		out, _ := ptraceotlp.NewExportResponse().MarshalProto()
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv, func() ptrace.SpanSlice { mu.Lock(); defer mu.Unlock(); return all }
}

func TestExportScores(t *testing.T) {
	srv, got := collector(t)
	meta, _ := models.CaseMetadata{Trace: &models.CaseTrace{TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", ParentSpanID: "00f067aa0ba902b7", Spans: []models.TraceSpan{}}}.Encode()
	one, half := 1.0, 0.5
	pass, why := "observed the expected call", "1 of 2 calls failed"
	run := &models.Run{Suite: "S", Agent: "A"}
	run.Cases = []*models.CaseResult{
		{CaseID: "traced", Status: models.StatusFailed, ResponseMetadata: meta, Metrics: []*models.MetricResult{
			{Name: "path", Score: &one, Passed: true, Reason: &pass}, {Name: "ok_calls", Score: &half, Threshold: 1, Reason: &why}}},
		{CaseID: "plain", Status: models.StatusError, ErrorDetails: models.JSON(`{"kind":"timeout"}`)},
	}
	n, err := ExportScores(context.Background(), srv.URL+TracesPath, run, ExportOptions{})
	if err != nil || n != 2 {
		t.Fatalf("ExportScores = %d, %v", n, err)
	}
	spans := got()
	if spans.Len() != 2 {
		t.Fatalf("collector got %d spans", spans.Len())
	}
	byName := map[string]ptrace.Span{}
	for i := range spans.Len() {
		byName[spans.At(i).Name()] = spans.At(i)
	}
	traced := byName["evaluate traced"]
	if traced.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || traced.ParentSpanID().String() != "00f067aa0ba902b7" || traced.Links().Len() != 1 {
		t.Errorf("traced case span: trace %s parent %s links %d", traced.TraceID(), traced.ParentSpanID(), traced.Links().Len())
	}
	if traced.Events().Len() != 2 {
		t.Fatalf("events = %d", traced.Events().Len())
	}
	ev := traced.Events().At(1)
	attrs := ev.Attributes().AsRaw()
	if ev.Name() != "gen_ai.evaluation.result" || attrs["gen_ai.evaluation.name"] != "ok_calls" || attrs["gen_ai.evaluation.score.value"] != 0.5 ||
		attrs["gen_ai.evaluation.score.label"] != "fail" || attrs["gen_ai.evaluation.explanation"] != why {
		t.Errorf("event %s %v", ev.Name(), attrs)
	}
	plain := byName["evaluate plain"]
	if plain.ParentSpanID().String() != "" || plain.Status().Code() != ptrace.StatusCodeError {
		t.Errorf("untraced case span: parent %q status %v", plain.ParentSpanID(), plain.Status().Code())
	}
}
