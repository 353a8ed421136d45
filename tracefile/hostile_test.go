package tracefile

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/otlp"
)

// Bad input is a clear error naming the file and where in it, never a
// panic; nothing is returned as a case once the error is met.
func TestOpen_badInput(t *testing.T) {
	reqs := traffic(t)
	lines := jsonLines(t, reqs)
	proto := prefixed(t, reqs, false, false)
	metrics := pmetric.NewMetrics()
	metrics.ResourceMetrics().AppendEmpty().ScopeMetrics().AppendEmpty().Metrics().AppendEmpty().SetName("requests")
	metricsJSON, _ := (&pmetric.JSONMarshaler{}).MarshalMetrics(metrics)
	metricsProto, _ := (&pmetric.ProtoMarshaler{}).MarshalMetrics(metrics)
	logs := plog.NewLogs()
	logs.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty().Body().SetStr("hello")
	logsJSON, _ := (&plog.JSONMarshaler{}).MarshalLogs(logs)
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	random[0] = 0x7f // not a magic number, not '{'
	deep := []byte(`{"resourceSpans":[{"resource":{"attributes":[{"key":"k","value":` + strings.Repeat(`{"arrayValue":{"values":[`, 80) + "\n")

	tests := []struct {
		name   string
		data   []byte
		limits Limits
		want   []string // in the error
	}{
		{"empty file", nil, Limits{}, []string{"no spans", "empty"}},
		{"only blank lines", []byte("\n\n  \n"), Limits{}, []string{"no spans"}},
		{"truncated json line", lines[:len(lines)-40], Limits{}, []string{"line 7", "not an OTLP traces export request"}},
		{"truncated proto", proto[:len(proto)-10], Limits{}, []string{"record 7", "truncated", "declares"}},
		{"truncated length", proto[:len(proto)-len(proto)+2], Limits{}, []string{"record 1", "truncated", "2 of the 4 length bytes"}},
		{"truncated zstd", zstded(lines)[:200], Limits{}, []string{"zstd: unexpected EOF"}},
		{"truncated gzip", gzipped(lines)[:300], Limits{}, []string{"line 1", "unexpected end of input"}},
		{"metrics json export", append(metricsJSON, '\n'), Limits{}, []string{"no spans", "holds metrics (line 1), not traces"}},
		{"logs json export", append(logsJSON, '\n'), Limits{}, []string{"no spans", "holds logs (line 1), not traces"}},
		{"metrics proto export", prefixed1(metricsProto), Limits{}, []string{"record 1"}},
		{"random binary", random, Limits{}, []string{"record 1 (offset 0)", "more than", "not an OTLP file export of traces?"}},
		{"line over the record limit", lines, Limits{MaxRecordBytes: 1000}, []string{"line 1", "line 1: longer than 1000 bytes (limit: MaxRecordBytes)"}},
		{"message over the record limit", proto, Limits{MaxRecordBytes: 1000}, []string{"record 1 (offset 0)", "more than 1000 (MaxRecordBytes)"}},
		{"json nested too deep", deep, Limits{}, []string{"line 1", "nested more than 64 levels deep"}},
		{"json nested too deep, snake case", bytes.ReplaceAll(deep, []byte("arrayValue"), []byte("array_value")), Limits{}, []string{"line 1", "nested more than 64 levels deep"}},
		{"gzip bomb", gzipBomb(t, 64<<20), Limits{MaxDecompressedBytes: 8 << 20}, []string{"larger than 8388608 bytes (MaxDecompressedBytes)"}},
		{"zstd bomb", zstded(make([]byte, 64<<20)), Limits{MaxDecompressedBytes: 8 << 20}, []string{"larger than 8388608 bytes (MaxDecompressedBytes)"}},
		{"zstd record bomb", prefixed1(zstded(make([]byte, 4<<20))), Limits{MaxRecordBytes: 1 << 20}, []string{"record 1", "decompresses to more than 1048576 bytes"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "export", tc.data)
			cases, _, err := readAll(t, path, Options{Limits: tc.limits})
			if err == nil {
				t.Fatalf("read %d cases and no error", len(cases))
			}
			msg := err.Error()
			if !strings.Contains(msg, path) {
				t.Errorf("error %q does not name the file", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
		})
	}
}

// prefixed1 frames one message as the file exporter does.
func prefixed1(msg []byte) []byte {
	n := len(msg)
	return append([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}, msg...)
}

// gzipBomb compresses n zero bytes: about a thousandth of n on disk.
func gzipBomb(t *testing.T, n int) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range n >> 20 {
		_, _ = zw.Write(zero)
	}
	_ = zw.Close()
	if b.Len() > n/500 {
		t.Fatalf("bomb of %d bytes compressed to %d", n, b.Len())
	}
	return b.Bytes()
}

// Damaged spans are repaired or skipped and counted; the rest still read.
func TestNext_damagedSpans(t *testing.T) {
	reqs := traffic(t)
	// Spans as some exporters send them: invalid UTF-8 in an attribute
	// and a name, and spans without a trace id.
	var damaged, noID int
	for _, td := range reqs {
		forSpans(td, func(sp ptrace.Span) {
			if v, ok := sp.Attributes().Get("gen_ai.tool.name"); ok {
				v.SetStr("lookup\xff_order")
				sp.SetName("execute_tool \xc3")
				damaged++
			}
			if sp.Name() == "search_docs" {
				sp.Attributes().PutStr("output.value", "3\x00hits")
				damaged++
			}
			if sp.Name() == "ai.toolCall" {
				sp.SetTraceID(pcommon.TraceID{})
				noID++
			}
		})
	}
	for _, format := range []struct {
		name string
		data []byte
	}{{"json", jsonLines(t, reqs)}, {"proto", prefixed(t, reqs, false, false)}} {
		t.Run(format.name, func(t *testing.T) {
			cases, st, err := readAll(t, writeFile(t, "export", format.data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if st.NoTraceID != noID || noID != 1 {
				t.Errorf("NoTraceID = %d; want %d", st.NoTraceID, noID)
			}
			// pdata's JSON marshaler already writes invalid UTF-8 as U+FFFD;
			// protobuf carries the bytes, which the reader repairs and counts.
			t.Logf("%s: %+v", format.name, st)
			if format.name == "proto" && st.Repaired != damaged {
				t.Errorf("Repaired = %d; want %d", st.Repaired, damaged)
			}
			for _, c := range cases {
				for _, tr := range c.Turns {
					for _, a := range tr.Evidence.Actions {
						if !utf8.ValidString(a.Name) {
							t.Errorf("action name %q is not UTF-8", a.Name)
						}
					}
					for _, s := range tr.Evidence.Record.Spans {
						if !utf8.ValidString(s.Name) {
							t.Errorf("span name %q is not UTF-8", s.Name)
						}
					}
				}
			}
			if st.Cases != 6 {
				t.Errorf("%d cases; want 6", st.Cases)
			}
		})
	}
}

func forSpans(td ptrace.Traces, f func(ptrace.Span)) {
	otlp.EachSpan(td, func(sp ptrace.Span, _ string) { f(sp) })
}

// A file whose spans all lack trace ids is an error, not zero cases.
func TestNext_noTraceIDs(t *testing.T) {
	reqs := traffic(t)
	for _, td := range reqs {
		forSpans(td, func(sp ptrace.Span) { sp.SetTraceID(pcommon.TraceID{}) })
	}
	_, st, err := readAll(t, writeFile(t, "export", jsonLines(t, reqs)), Options{})
	if err == nil || !strings.Contains(err.Error(), "no spans with a trace id: all 33 spans read had none") {
		t.Errorf("err = %v; want no spans with a trace id", err)
	}
	if st.NoTraceID != 33 {
		t.Errorf("NoTraceID = %d", st.NoTraceID)
	}
}

func TestCleanJSONAndDepth(t *testing.T) {
	clean := []struct {
		in   string
		want bool
	}{
		{`{"a":"plain \u003c text é"}`, true},
		{`{"a":"nul \u0000"}`, false},
		{`{"a":"lone \udc00"}`, false},
		{`{"a":"lone \uD83D"}`, false},
		{"{\"a\":\"bad \xff\"}", false},
	}
	for _, tc := range clean {
		if got := cleanJSON([]byte(tc.in)); got != tc.want {
			t.Errorf("cleanJSON(%q) = %v; want %v", tc.in, got, tc.want)
		}
	}
	deep := []struct {
		in   string
		want bool
	}{
		{`[[[[1]]]]`, true},
		{`[[1],[2]]`, false},
		{`{"k":"[[[[[[","v":[]}`, false}, // brackets in strings do not count
		{`{"k":"\"[[[[","v":[]}`, false}, // nor after an escaped quote
		{`{"k":"\\","v":[[[1]]]}`, true}, // an escaped backslash ends no string
	}
	for _, tc := range deep {
		if got := tooDeep([]byte(tc.in), 3); got != tc.want {
			t.Errorf("tooDeep(%q, 3) = %v; want %v", tc.in, got, tc.want)
		}
	}
}
