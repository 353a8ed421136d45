package otlp

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentevals-go/agentevals/score"
)

// TestStoredActions_AsMarshal: the hand-written encoder writes exactly
// what json.Marshal writes for the same records, for text that needs
// escaping (quotes, HTML characters, controls, line separators, invalid
// UTF-8), JSON with insignificant space, and durations of every size.
func TestStoredActions_AsMarshal(t *testing.T) {
	dur := func(f float64) *float64 { return &f }
	text := func(s string) *string { return &s }
	acts := []score.Action{
		{Name: "lookup_order", Arguments: json.RawMessage(`{"order_id":"A-1"}`), Result: json.RawMessage(`{"status":"shipped"}`), Status: "ok", DurationMS: dur(12.5)},
		{Group: "orders", Name: `say "hi" <b>&</b>`, Arguments: json.RawMessage("{ \"q\" : [1, 2],\n \"html\": \"<a href='x'>&amp;</a>\" }"), DurationMS: dur(0)},
		{Name: "tab\there\x01\u2028\u2029é\x7f", Arguments: json.RawMessage(`"not an object"`), Result: json.RawMessage(`"text result \u003c"`), Status: "error", DurationMS: dur(1e-7)},
		{Name: "bad\xffutf8", Arguments: json.RawMessage(`{"k":"\u2028 é"}`), DurationMS: dur(3e21)},
		{Name: "", Arguments: nil, Result: json.RawMessage(`[1,2,3]`), DurationMS: dur(123456789.123)},
		{Name: "no duration", Arguments: json.RawMessage(`{}`)},
	}
	raw := []*string{nil, text("{ \"q\" : 1 }"), text("not json <x>"), nil}
	for _, tc := range []struct {
		name string
		acts []score.Action
		raw  []*string
	}{
		{"none", nil, nil},
		{"empty", []score.Action{}, nil},
		{"every shape", acts, raw},
		{"no raw", acts, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := make([]storedAction, len(tc.acts))
			for i, a := range tc.acts {
				want[i] = storedAction{Name: a.Name, Arguments: objectArguments(a.Arguments), Result: a.Result, Status: a.Status, DurationMS: a.DurationMS}
				if a.Group != "" {
					want[i].Group = &a.Group
				}
				if i < len(tc.raw) {
					want[i].RawArguments = tc.raw[i]
				}
			}
			wantJSON, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			if got := storedActions(tc.acts, tc.raw, false); !bytes.Equal(got, wantJSON) {
				t.Errorf("storedActions wrote\n%s\njson.Marshal writes\n%s", got, wantJSON)
			}
			var objects []score.Action // arguments read from spans: objects already
			var buf argText
			for _, a := range tc.acts {
				a.Arguments, _ = buf.arguments(string(a.Arguments))
				objects = append(objects, a)
			}
			if got, want := storedActions(objects, tc.raw, true), storedActions(objects, tc.raw, false); !bytes.Equal(got, want) {
				t.Errorf("with arguments read as objects\n%s\nchecked again\n%s", got, want)
			}
		})
	}
}
