package models

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestEncodeFields_writesWhatEncodeObjectWrites(t *testing.T) {
	yes, in := true, int64(7)
	reason := "a <b> & c"
	tests := []struct {
		name string
		meta CaseMetadata
	}{
		{name: "empty", meta: CaseMetadata{}},
		{name: "empty maps omitted", meta: CaseMetadata{JudgeUsage: JudgeUsage{}, MetricDetails: map[string]map[string]json.RawMessage{}}},
		{name: "trace and details", meta: CaseMetadata{
			MetricDetails: map[string]map[string]json.RawMessage{"tone": {"raw": json.RawMessage(` { "x" : "<y>" } `)}},
			NotCalculated: []NotCalculated{{Name: "tone", Reason: &reason}},
			Trace: &CaseTrace{InputTokens: &in, SpanActions: JSON(`[ {"name":"t"} ]`), TraceID: "ab",
				Spans: []TraceSpan{{Name: "s\u2028", Attributes: SpanAttrsOf(map[string]string{"k": "v&w"})}}}}},
		{name: "repeats", meta: CaseMetadata{CaseRepeats: &CaseRepeats{PassAtK: &yes,
			RepeatScores: map[string][]*float64{"m": {nil}}, Repeats: []RepeatAnswer{{Status: "passed"}}}}},
		{name: "extra, a field wins", meta: CaseMetadata{ReplyNote: &ReplyNote{Note: "n", ReadAs: "text"},
			Extra: map[string]json.RawMessage{"reply_note": json.RawMessage(`1`), "zz": json.RawMessage(" [1, \"<\"] "),
				"a\xff": json.RawMessage(`null`), "b": nil}}},
		{name: "extra under an empty field", meta: CaseMetadata{Extra: map[string]json.RawMessage{"sanitized": json.RawMessage(`{"redacted":["output"]}`)}}},
		{name: "unencodable", meta: CaseMetadata{Unencodable: "why"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := encodeObject(&tt.meta, tt.meta.Extra, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tt.meta.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Encode =\n%s\nencodeObject writes\n%s", got, want)
			}
		})
	}
	bad := CaseMetadata{Extra: map[string]json.RawMessage{"x": json.RawMessage(`{`)}}
	if _, err := bad.Encode(); err == nil {
		t.Error("Encode of an invalid raw value: no error")
	}
}
