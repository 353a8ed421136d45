package tracefile

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Every shape the file exporter writes reads to the same cases.
func TestOpen_formats(t *testing.T) {
	reqs := traffic(t)
	lines := jsonLines(t, reqs)
	formats := []struct {
		name string
		data []byte
	}{
		{"json lines", lines},
		{"json lines, gzip", gzipped(lines)},
		{"json lines, zstd stream", zstded(lines)},
		{"proto", prefixed(t, reqs, false, false)},
		{"proto, zstd stream", zstded(prefixed(t, reqs, false, false))},
		{"proto, zstd per record", prefixed(t, reqs, false, true)},
		{"json, zstd per record", prefixed(t, reqs, true, true)},
	}
	var want []string
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			cases, stats, err := readAll(t, writeFile(t, "traces", f.data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if stats.Records != len(reqs) || stats.Spans != 33 || stats.Traces != 9 || stats.Cases != 6 {
				t.Errorf("stats = %+v; want %d records, 33 spans, 9 traces, 6 cases", stats, len(reqs))
			}
			var got []string
			for _, c := range cases {
				got = append(got, summary(c))
			}
			if want == nil {
				want = got
				return
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("cases differ from json lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// A file the collector's file exporter shares between pipelines holds
// metrics and logs lines too: they are skipped and counted.
func TestNext_mixedSignals(t *testing.T) {
	reqs := traffic(t)
	metrics := pmetric.NewMetrics()
	metrics.ResourceMetrics().AppendEmpty().ScopeMetrics().AppendEmpty().Metrics().AppendEmpty().SetName("requests")
	line, err := (&pmetric.JSONMarshaler{}).MarshalMetrics(metrics)
	if err != nil {
		t.Fatal(err)
	}
	data := append(append(line, '\n'), jsonLines(t, reqs)...)
	data = append(append(data, line...), '\n')
	_, st, err := readAll(t, writeFile(t, "all.jsonl", data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.OtherSignals != 2 || st.Cases != 6 {
		t.Errorf("stats = %+v; want 2 other signals skipped, 6 cases", st)
	}
}

// Cases read from the SDK's spans: one per trace, one per conversation
// with its turns in start order, question, answer, actions and usage
// through the spans' mapping.
func TestNext_cases(t *testing.T) {
	cases, stats, err := readAll(t, writeFile(t, "traces.jsonl", jsonLines(t, traffic(t))), Options{})
	if err != nil {
		t.Fatal(err)
	}
	byQ := map[string]*Case{}
	for _, c := range cases {
		byQ[c.Question] = c
	}
	if stats.Late+stats.NoTraceID+stats.Repaired+stats.EarlyTraces != 0 {
		t.Errorf("stats = %+v; want nothing skipped", stats)
	}

	single := byQ["Where is order 42?"]
	if single == nil || single.ConversationID != "" || single.Output != "Order 42 shipped." || len(single.Turns) != 1 {
		t.Fatalf("single trace case = %+v", single)
	}
	tr := single.Turns[0]
	if len(tr.Evidence.Actions) != 1 || tr.Evidence.Actions[0].Name != "lookup_order" || string(tr.Evidence.Actions[0].Arguments) != `{"id":42}` {
		t.Errorf("actions = %+v", tr.Evidence.Actions)
	}
	if tr.Evidence.InputTokens == nil || *tr.Evidence.InputTokens != 320 || *tr.Evidence.OutputTokens != 42 || tr.Evidence.Record.ModelCalls != 2 {
		t.Errorf("usage = %v/%v, %d model calls; want 320/42, 2", tr.Evidence.InputTokens, tr.Evidence.OutputTokens, tr.Evidence.Record.ModelCalls)
	}
	if !tr.Complete || len(tr.Evidence.Record.Spans) != 4 || single.Service != "support-agent" {
		t.Errorf("complete=%v spans=%d service=%q", tr.Complete, len(tr.Evidence.Record.Spans), single.Service)
	}
	src := single.Source()
	if len(src.TraceIDs) != 1 || len(src.TraceIDs[0]) != 32 || !src.Start.Equal(base) || !src.End.Equal(base.Add(910*time.Millisecond)) {
		t.Errorf("source = %+v", src)
	}

	conv := byQ["Hi"]
	if conv == nil || conv.ConversationID != "conv-7" || len(conv.Turns) != 3 {
		t.Fatalf("conversation = %+v", conv)
	}
	wantTurns := []string{"Hi", "Where is order 7?", "Can I change the address?"}
	for i, w := range wantTurns {
		if conv.Turns[i].Message != w {
			t.Errorf("turn %d message = %q; want %q", i+1, conv.Turns[i].Message, w)
		}
	}
	if conv.Output != "Yes, until it ships." || len(conv.Source().TraceIDs) != 3 {
		t.Errorf("conversation output %q, source %+v", conv.Output, conv.Source())
	}

	oi := byQ["How do refunds work?"]
	if oi == nil || oi.ConversationID != "sess-1" || len(oi.Turns) != 2 || oi.Output != "Store credit only." {
		t.Fatalf("OpenInference session = %+v", oi)
	}
	if a := oi.Turns[1].Evidence.Actions; len(a) != 1 || a[0].Name != "search_docs" || a[0].Status != "error" {
		t.Errorf("OpenInference tool = %+v", a)
	}
	if in := oi.Turns[0].Evidence.InputTokens; in == nil || *in != 50 {
		t.Errorf("OpenInference usage = %v", in)
	}

	v := byQ["Weather in Oslo?"]
	if v == nil || v.Output != "4 degrees." || len(v.Turns[0].Evidence.Actions) != 1 || v.Turns[0].Evidence.Actions[0].Name != "weather" {
		t.Fatalf("Vercel case = %+v", v)
	}
	if in := v.Turns[0].Evidence.InputTokens; in == nil || *in != 40 {
		t.Errorf("Vercel usage = %v", in)
	}
}

// Traces arriving interleaved beyond MaxOpenTraces are closed early,
// counted, and their stragglers counted late: every span is accounted
// for, and nothing is held once the stream ends.
func TestNext_boundedOpenTraces(t *testing.T) {
	reqs := sdkRequests(t, 3, func(tr trace.Tracer) {
		// 40 agent calls at once: every model call ends before any root.
		var roots []trace.Span
		var ctxs []context.Context
		for i := range 40 {
			ctx, root := tr.Start(context.Background(), "invoke_agent", at(i))
			roots, ctxs = append(roots, root), append(ctxs, ctx)
		}
		for i := range 40 {
			for range 3 {
				_, chat := tr.Start(ctxs[i], "chat", at(i+1), trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat")))
				chat.End(at(i + 2))
			}
		}
		for i, root := range roots {
			root.End(at(i + 3))
		}
	})
	path := writeFile(t, "traces.jsonl", jsonLines(t, reqs))
	r, err := Open(path, Options{Limits: Limits{MaxOpenTraces: 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n, kept := 0, 0
	for {
		c, err := r.Next()
		if err != nil {
			break
		}
		n++
		kept += c.Turns[0].Evidence.Record.SpansReceived
		if len(r.g.open) > 3+4 { // one record may open a few before settling
			t.Fatalf("%d traces open; want at most the limit plus one record's", len(r.g.open))
		}
	}
	st := r.Stats()
	if st.Spans != 160 || st.EarlyTraces == 0 || st.Late == 0 || kept+st.Late != st.Spans {
		t.Errorf("stats = %+v, %d spans in cases; want early and late traces, every span accounted for", st, kept)
	}
	if len(r.g.open) != 0 || r.g.bytes != 0 || r.g.convBytes != 0 || len(r.g.convs) != 0 {
		t.Errorf("after the end: %d open traces, %d bytes held", len(r.g.open), r.g.bytes)
	}
	if st.Cases != n || st.Traces != n {
		t.Errorf("cases %d, traces %d, returned %d", st.Cases, st.Traces, n)
	}
}

func TestNestsValues(t *testing.T) {
	for _, tc := range []struct {
		data string
		want bool
	}{
		{`{"resourceSpans":[{"attributes":[{"key":"a","value":{"stringValue":"x"}}]}]}`, false},
		{`{"key":"a","value":{"arrayValue":{"values":[]}}}`, true},
		{`{"key":"a","value":{"kvlistValue":{"values":[]}}}`, true},
		{`{"key":"a","value":{"array_value":{"values":[]}}}`, true},
		{`{"key":"a","value":{"kvlist_value":{"values":[]}}}`, true},
		{`{"key":"a","value":{"intValue":"3"},"x":"Value\""}`, false},
		{`Value"`, false},
	} {
		if got := nestsValues([]byte(tc.data)); got != tc.want {
			t.Errorf("nestsValues(%s) = %v; want %v", tc.data, got, tc.want)
		}
	}
}
