package models

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// TestCaseTrace_AsMarshal holds the record's own writer to the bytes
// encoding/json writes for the same record with its attributes as a map.
func TestCaseTrace_AsMarshal(t *testing.T) {
	in, out := int64(7), int64(0)
	hostile := "a\x00b\xffc<d>&e\u2028\"\\\n\t"
	tests := []struct {
		name string
		rec  CaseTrace
	}{
		{name: "empty", rec: CaseTrace{}},
		{name: "no spans yet", rec: CaseTrace{Spans: []TraceSpan{}, TraceID: "ab"}},
		{name: "every field", rec: CaseTrace{ActionsFrom: "spans", InputTokens: &in, OutputTokens: &out, ModelCalls: 2,
			Notes: []string{"cut", hostile}, ParentSpanID: "00f067aa0ba902b7", SpanActions: JSON(` [ {"name":"t","result":"<b>"} ] `),
			SpansDropped: 3, SpansReceived: 9, TraceID: "4bf92f3577b34da6a3ce929d0e0e4736",
			Spans: []TraceSpan{
				{Name: hostile, SpanID: "01", ParentID: "02", Kind: "client", Status: "error", StatusMessage: hostile,
					StartMS: 1e-7, DurationMS: 1e21, Attributes: SpanAttrs{{"z", "1"}, {"a", hostile}, {"z", "2"}, {hostile, "k"}, {"m", ""}}},
				{Name: "plain", SpanID: "03", StartMS: 12.5, DurationMS: 0.001},
				{Name: "sorted", SpanID: "04", Attributes: SpanAttrs{{"a", "1"}, {"b", "2"}}},
			}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.rec.appendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			// encoding/json by reflection, the attributes through their
			// MarshalJSON, which is held to a map's encoding in turn.
			want, err := json.Marshal(&tt.rec)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("wrote\n%s\nencoding/json writes\n%s", got, want)
			}
			for _, s := range tt.rec.Spans {
				assertAttrsAsMap(t, s.Attributes)
			}
			back, err := DecodeTrace(got)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := back.appendJSON(nil)
			if want, _ := json.Marshal(back); !bytes.Equal(again, want) {
				t.Fatalf("read back and written again\n%s\nwant\n%s", again, want)
			}
		})
	}
	for _, f := range []float64{math.NaN(), math.Inf(1)} {
		rec := CaseTrace{Spans: []TraceSpan{{DurationMS: f}}}
		if _, err := rec.appendJSON(nil); err == nil {
			t.Errorf("duration %v: no error", f)
		}
	}
	if _, err := (&CaseTrace{SpanActions: JSON(`[`)}).appendJSON(nil); err == nil {
		t.Error("span_actions not JSON: no error")
	}
}

// assertAttrsAsMap holds the attributes' JSON to encoding/json's for a
// map of them.
func assertAttrsAsMap(t *testing.T, a SpanAttrs) {
	t.Helper()
	m := map[string]string{}
	for _, at := range a {
		m[at.Key] = at.Value
	}
	want, _ := json.Marshal(m)
	if got, _ := a.MarshalJSON(); !bytes.Equal(got, want) {
		t.Fatalf("attributes wrote\n%s\na map of them is\n%s", got, want)
	}
}
