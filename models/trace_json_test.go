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
			want, err := json.Marshal(asMaps(tt.rec))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("wrote\n%s\nencoding/json writes\n%s", got, want)
			}
			if viaMarshaler, _ := json.Marshal(&tt.rec); !bytes.Equal(viaMarshaler, want) {
				t.Fatalf("json.Marshal of the record wrote\n%s\nwant\n%s", viaMarshaler, want)
			}
			back, err := DecodeTrace(got)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := back.appendJSON(nil)
			if want, _ := json.Marshal(asMaps(*back)); !bytes.Equal(again, want) {
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

// asMaps is rec as encoding/json sees it with map attributes.
func asMaps(rec CaseTrace) any {
	type span struct {
		Attributes    map[string]string `json:"attributes,omitempty"`
		DurationMS    float64           `json:"duration_ms"`
		Kind          string            `json:"kind,omitempty"`
		Name          string            `json:"name"`
		ParentID      string            `json:"parent_id,omitempty"`
		SpanID        string            `json:"span_id"`
		StartMS       float64           `json:"start_ms"`
		Status        string            `json:"status"`
		StatusMessage string            `json:"status_message,omitempty"`
	}
	type record struct {
		ActionsFrom   string   `json:"actions_from,omitempty"`
		InputTokens   *int64   `json:"input_tokens,omitempty"`
		ModelCalls    int      `json:"model_calls"`
		Notes         []string `json:"notes,omitempty"`
		OutputTokens  *int64   `json:"output_tokens,omitempty"`
		ParentSpanID  string   `json:"parent_span_id,omitempty"`
		SpanActions   JSON     `json:"span_actions,omitempty"`
		Spans         []span   `json:"spans"`
		SpansDropped  int      `json:"spans_dropped,omitempty"`
		SpansReceived int      `json:"spans_received"`
		TraceID       string   `json:"trace_id"`
	}
	r := record{rec.ActionsFrom, rec.InputTokens, rec.ModelCalls, rec.Notes, rec.OutputTokens, rec.ParentSpanID, rec.SpanActions, nil, rec.SpansDropped, rec.SpansReceived, rec.TraceID}
	if rec.Spans != nil {
		r.Spans = []span{}
	}
	for _, s := range rec.Spans {
		var m map[string]string
		for _, a := range s.Attributes {
			if m == nil {
				m = map[string]string{}
			}
			m[a.Key] = a.Value
		}
		r.Spans = append(r.Spans, span{m, s.DurationMS, s.Kind, s.Name, s.ParentID, s.SpanID, s.StartMS, s.Status, s.StatusMessage})
	}
	return r
}
